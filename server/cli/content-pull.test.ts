// `npm run content -- pull`: the live release's documents written into a checkout, so git mirrors what is published.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLeadStore } from '../store/sqlite/lead-store.ts';
import { runCli } from '../../tests/helpers/run-cli.ts';
import { useTempDirForAll } from '../../tests/helpers/temp-dir.ts';
import { runContentCli } from './content.ts';

const folder = useTempDirForAll('content-pull-');
let dbFile: string;
let checkout: string;

const RELEASED = {
  'pages/index.json': '{"title":"Home as published"}\n',
  'pages/services/new-page.json': '{"title":"Added in the browser"}\n',
  'site/site.json': '{"brand":"as published"}\n',
};

beforeAll(async () => {
  dbFile = join(folder(), 'leads.db');
  const store = openLeadStore(dbFile, { writerThread: false });
  try {
    const documents = Object.entries(RELEASED).map(([path, text]) => ({ path, text }));
    const release = await store.releases.create({
      files: [],
      documents,
      codeVersion: 'test',
      author: 'ana@example.org',
      message: 'from the browser',
    });
    await store.releases.setLive(release.id, 0, { kind: 'publish', actor: 'ana@example.org' });
  } finally {
    await store.close();
  }
  checkout = join(folder(), 'checkout');
  for (const dir of ['pages/services', 'site']) mkdirSync(join(checkout, dir), { recursive: true });
  writeFileSync(join(checkout, 'pages/index.json'), '{"title":"Home as in git"}\n');
  writeFileSync(join(checkout, 'pages/services/deleted-since.json'), '{"title":"Deleted in the browser"}\n');
  writeFileSync(join(checkout, 'site/site.json'), RELEASED['site/site.json']);
  const git = (...args: string[]) => execFileSync('git', args, { cwd: checkout, stdio: 'ignore' });
  git('init', '-q');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'add', '.');
  git('-c', 'user.name=t', '-c', 'user.email=t@example.org', 'commit', '-q', '-m', 'content');
});

const cli = (args: string[]) =>
  runCli(runContentCli, args, { env: { LEADS_DB: dbFile }, cwd: checkout, user: 'dev' });
const read = (path: string) => readFileSync(join(checkout, path), 'utf8');

describe('npm run content -- pull', () => {
  it('refuses while git shows uncommitted content changes, and overwrites nothing', async () => {
    writeFileSync(join(checkout, 'pages/index.json'), '{"title":"A local edit"}\n');
    const { code, err } = await cli(['pull']);
    expect(code).toBe(1);
    expect(err).toContain('pages/index.json');
    expect(err).toContain('--force');
    expect(read('pages/index.json')).toBe('{"title":"A local edit"}\n');
    execFileSync('git', ['checkout', '--', 'pages/index.json'], { cwd: checkout });
  });

  it('writes the live release: changed, added and removed documents, each named', async () => {
    const { code, out } = await cli(['pull']);
    expect(code).toBe(0);
    expect(out).toContain('~ pages/index.json');
    expect(out).toContain('+ pages/services/new-page.json');
    expect(out).toContain('- pages/services/deleted-since.json');
    expect(out).toContain("Wrote release 1's content: 1 changed, 1 added, 1 removed.");
    for (const [path, text] of Object.entries(RELEASED)) expect(read(path)).toBe(text);
    expect(existsSync(join(checkout, 'pages/services/deleted-since.json'))).toBe(false);
  });

  it('names the releases there are for an unknown id', async () => {
    const { code, err } = await cli(['pull', '7', '--force']);
    expect(code).toBe(1);
    expect(err).toContain('There is no release 7. Releases: 1');
  });
});
