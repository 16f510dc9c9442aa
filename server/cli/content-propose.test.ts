// `npm run content -- propose --title "..."`: the checkout's content changes, against the live release, become a change
// set authored cli:<os user>, in draft, needing the reviews its fields' claims require; an invalid checkout or one with
// no change proposes nothing.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import { requiredKinds } from '../content-staff/change-review.ts';
import { readDocuments } from '../releases/documents.ts';
import { openLeadStore } from '../store/sqlite/lead-store.ts';
import { runCli } from '../../tests/helpers/run-cli.ts';
import { useTempDirForAll } from '../../tests/helpers/temp-dir.ts';
import { runContentCli } from './content.ts';

const folder = useTempDirForAll('content-propose-');
const PAGE = 'pages/treatment/fentanyl-addiction.json';
let dbFile: string;
let checkout: string;

beforeAll(async () => {
  dbFile = join(folder(), 'leads.db');
  checkout = join(folder(), 'checkout');
  for (const dir of ['pages', 'site']) cpSync(join(ROOT, dir), join(checkout, dir), { recursive: true });
  const store = openLeadStore(dbFile, { writerThread: false });
  try {
    const release = await store.releases.create({
      files: [],
      documents: readDocuments(checkout),
      codeVersion: 'test',
      author: 'ana@example.org',
      message: 'live',
    });
    await store.releases.setLive(release.id, 0, { kind: 'publish', actor: 'ana@example.org' });
  } finally {
    await store.close();
  }
});

const cli = (args: string[]) =>
  runCli(runContentCli, args, { env: { LEADS_DB: dbFile }, cwd: checkout, user: 'dev' });

describe('npm run content -- propose', () => {
  it('proposes nothing when the checkout is what is live, or without a title', async () => {
    expect((await cli(['propose', '--title', 'Nothing'])).err).toContain('nothing to propose');
    expect((await cli(['propose'])).code).not.toBe(0);
  });

  it('refuses an invalid checkout with the validator’s words', async () => {
    const file = join(checkout, PAGE);
    const text = readFileSync(file, 'utf8');
    writeFileSync(file, text.replace(/"title": "[^"]*"/, '"title": ""'));
    const { code, err } = await cli(['propose', '--title', 'Broken']);
    expect(code).toBe(1);
    expect(err).toContain('nothing was proposed');
    writeFileSync(file, text);
  });

  it('makes a change set of the changed documents, authored cli:dev, needing a clinical review', async () => {
    const file = join(checkout, PAGE);
    writeFileSync(file, readFileSync(file, 'utf8').replace('"7-14 days"', '"10-14 days"'));
    const { code, out } = await cli(['propose', '--title', 'Detox duration from git']);
    expect(code).toBe(0);
    expect(out).toContain(`~ ${PAGE}`);
    const id = /change set ([\w-]+): Detox duration from git/.exec(out)?.[1];
    expect(id).toBeDefined();
    const store = openLeadStore(dbFile, { writerThread: false });
    try {
      const set = await store.changes.get(id ?? '');
      expect(set).toMatchObject({
        title: 'Detox duration from git',
        author: 'cli:dev',
        state: 'draft',
        baseRelease: 1,
      });
      const documents = await store.changes.documents(id ?? '');
      expect(documents.map((document) => document.path)).toEqual([PAGE]);
      expect(documents[0]?.text).toContain('10-14 days');
      expect(requiredKinds(documents)).toEqual(['clinical']);
      const acts = (await store.audit.page({ limit: 10 })).rows.map((row) => `${row.actor} ${row.action}`);
      expect(acts).toEqual(expect.arrayContaining(['cli:dev change-create', 'cli:dev change-edit']));
    } finally {
      await store.close();
    }
  });
});
