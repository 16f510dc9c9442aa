// `npm run leads -- migrate-to-postgres` against a real PostgreSQL: every kind of row copied, values still sealed and
// opening with the file's key, the audit chain whole; a second run copies nothing; a database of another key refused.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { loadForms } from '../content.ts';
import { openLeadStore } from '../store/sqlite/lead-store.ts';
import { openPostgresLeadStore } from '../store/postgres/pg-lead-store.ts';
import { startTestPostgres, type TestPostgres } from '../../tests/helpers/postgres.ts';
import { runCli } from '../../tests/helpers/run-cli.ts';
import { useTempDirForAll } from '../../tests/helpers/temp-dir.ts';
import { writeVersionOneFile } from '../../tests/helpers/legacy-lead-file.ts';
import { runLeadsCli } from './leads.ts';
import { runStaffCli } from './staff.ts';

/** Every byte value, as an image holds them. */
const LOGO = Buffer.from(Array.from({ length: 256 }, (_, n) => n));

describe('leads migrate-to-postgres', () => {
  const folder = useTempDirForAll('leads-migrate-');
  let dir: string;
  let dbFile: string;
  let cluster: TestPostgres;
  let admin: pg.Pool;
  const ids: string[] = [];

  beforeAll(async () => {
    cluster = await startTestPostgres();
    admin = new pg.Pool({ connectionString: cluster.url, max: 2 });
    dir = folder();
    dbFile = join(dir, 'leads.db');
    // The key file beside the database, as `npm start` creates it.
    const store = openLeadStore(dbFile, { forms: loadForms() });
    for (const [n, key] of ['k-1', undefined, undefined].entries()) {
      const fields = { fullName: `Migrated Person ${n}`, phone: '(555) 010-4477', memberId: `MIG-${n}` };
      ids.push(
        (
          await store.insertLead({
            formId: 'insurance-verification',
            source: '/insurance',
            fields,
            idempotencyKey: key,
          })
        ).id,
      );
    }
    const [first, second] = ids as [string, string];
    await store.markDelivered([first], new Date());
    await store.inbox.setStatus(first, 'contacted', 'ana@example.org');
    await store.inbox.addNote(second, 'Prefers a call after 5', 'ana@example.org');
    const { token } = await store.staff.createInvite(
      'ana@example.org',
      ['admissions', 'admin'],
      Date.now() + 60_000,
    );
    const passkey = {
      id: 'cred-1',
      publicKey: new Uint8Array([1, 2, 3]),
      counter: 0,
      transports: ['internal'],
    };
    await store.staff.enrol(token, 'staff-1', passkey, Date.now());
    await store.audit.append({ actor: 'cli:tester', action: 'cli-read', detail: 'list count=3' });
    // Two releases sharing a file, the second live, then a rollback to the first.
    for (const message of ['First', 'Second'])
      await store.releases.create({
        files: [
          { path: 'index.html', bytes: Buffer.from(`<h1>${message}</h1>`) },
          { path: 'assets/logo.png', bytes: LOGO },
        ],
        documents: [{ path: 'pages/index.json', text: `{"title":"${message}"}` }],
        codeVersion: '1.0.0+nogit.0',
        author: 'cli:tester',
        message,
      });
    await store.releases.setLive(1, 0, { kind: 'publish', actor: 'cli:tester' });
    await store.releases.setLive(2, 1, { kind: 'publish', actor: 'cli:tester' });
    await store.releases.setLive(1, 2, { kind: 'rollback', actor: 'cli:tester' });
    // A change set with a save, an approval and a comment.
    const now = Date.now();
    await store.changes.create({ id: 'c1', title: 'Home', author: 'ed@example.org', baseRelease: 1, now });
    await store.changes.save('c1', {
      path: 'pages/index.json',
      baseText: '{"title":"First"}',
      text: '{"title":"Third"}',
      expectedVersion: null,
      by: 'ed@example.org',
      now,
    });
    await store.changes.approve('c1', {
      by: 'maya@example.org',
      at: now,
      contentHash: 'h',
      covers: ['other'],
      name: null,
      credential: null,
    });
    await store.changes.comment('c1', {
      by: 'maya@example.org',
      at: now,
      path: null,
      pointer: null,
      text: 'OK',
    });
    await store.close();
  });
  afterAll(async () => {
    await admin.end();
    cluster.remove();
  });

  const cli = (databaseUrl: string) =>
    runCli(runLeadsCli, ['migrate-to-postgres'], {
      env: { LEADS_DB: dbFile, DATABASE_URL: databaseUrl },
      cwd: dir,
      user: 'tester',
    });

  it('copies every kind of row, checks it, and copies nothing the second time', async () => {
    await admin.query('CREATE DATABASE migrated');
    const url = cluster.url.replace(/\/app$/, '/migrated');
    const first = await cli(url);
    expect(first, first.err).toMatchObject({ code: 0 });
    expect(first.out).toMatch(
      /^Copied \d+ rows .*leads 3\/3, alerts 3\/3, idempotency_keys 1\/1, .*staff 1\/1, passkeys 1\/1/,
    );
    expect(first.out).toMatch(
      /release_blobs 5\/5, releases 2\/2, release_files 4\/4, release_documents 2\/2, live_release 1\/1, release_events 3\/3/,
    );
    expect(first.out).toMatch(
      /change_sets 1\/1, change_documents 1\/1, change_revisions 1\/1, change_approvals 1\/1, change_comments 1\/1, preview_links 0\/0/,
    );
    const second = await cli(url);
    expect(second).toMatchObject({ code: 0 });
    expect(second.out).toMatch(/^Nothing to copy/);

    const reader = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { rows } = await reader.query<{ data: string; sealed: string }>('SELECT data, sealed FROM leads');
      expect(rows).toHaveLength(3);
      for (const row of rows) expect(`${row.data}${row.sealed}`).not.toMatch(/Migrated|4477|MIG-/);
      expect(
        (await reader.query('SELECT note_sealed FROM lead_events WHERE kind = $1', ['note'])).rows[0],
      ).not.toMatchObject({ note_sealed: expect.stringContaining('after 5') });
    } finally {
      await reader.end();
    }
    // The server on PostgreSQL, with the file's key, reads what was copied: leads, notes, alerts, staff, the audit log.
    const store = await openPostgresLeadStore(url, { keyFile: `${dbFile}.key` });
    try {
      const [one, two] = ids as [string, string];
      expect((await store.getLead(one))?.data.fullName).toBe('Migrated Person 0');
      // Change sets came over, and the next approval takes the next number.
      expect((await store.changes.documents('c1')).map((document) => document.text)).toEqual([
        '{"title":"Third"}',
      ]);
      await store.changes.approve('c1', {
        by: 'ad@example.org',
        at: Date.now(),
        contentHash: 'h',
        covers: ['contact'],
        name: null,
        credential: null,
      });
      expect((await store.changes.approvals('c1')).map((approval) => approval.by)).toEqual([
        'maya@example.org',
        'ad@example.org',
      ]);
      expect(await store.getAlert(one)).toMatchObject({ status: 'delivered' });
      expect(await store.inbox.get(one)).toMatchObject({ status: 'contacted' });
      expect((await store.inbox.get(two))?.notes).toMatchObject([{ text: 'Prefers a call after 5' }]);
      expect(await store.staff.passkey('cred-1')).toMatchObject({ member: { email: 'ana@example.org' } });
      expect(await store.audit.verify()).toMatchObject({ ok: true });
      const repeat = await store.insertLead({
        formId: 'insurance-verification',
        source: '/insurance',
        fields: {},
        idempotencyKey: 'k-1',
      });
      expect(repeat).toMatchObject({ id: one, replayed: true });
      // The releases as they were: every byte, the live pointer and its history, and the next ones follow on.
      expect((await store.releases.list()).map((release) => release.message)).toEqual(['First', 'Second']);
      expect((await store.releases.file(1, 'assets/logo.png'))?.equals(LOGO)).toBe(true);
      expect((await store.releases.file(2, 'index.html'))?.toString()).toBe('<h1>Second</h1>');
      expect(await store.releases.documents(2)).toEqual([
        { path: 'pages/index.json', text: '{"title":"Second"}' },
      ]);
      expect(await store.releases.live()).toEqual({ releaseId: 1, generation: 3 });
      const third = await store.releases.create({
        files: [{ path: 'index.html', bytes: Buffer.from('<h1>Third</h1>') }],
        documents: [],
        codeVersion: '1.0.0+nogit.0',
        author: 'cli:tester',
        message: 'Third',
      });
      expect(third.id).toBe(3);
      expect(await store.releases.setLive(3, 3, { kind: 'publish', actor: 'cli:tester' })).toEqual({
        releaseId: 3,
        generation: 4,
      });
      expect(
        (await store.releases.events()).map((event) => [event.seq, event.kind, event.releaseId]),
      ).toEqual([
        [1, 'publish', 1],
        [2, 'publish', 2],
        [3, 'rollback', 1],
        [4, 'publish', 3],
      ]);
    } finally {
      await store.close();
    }
  });

  it('reads the leads, and invites staff, on PostgreSQL once DATABASE_URL is set', async () => {
    const url = cluster.url.replace(/\/app$/, '/migrated');
    const env = { LEADS_DB: dbFile, DATABASE_URL: url, LEADS_KEY_FILE: `${dbFile}.key` };
    let out = '';
    let err = '';
    const io = {
      env,
      cwd: dir,
      out: (text: string) => (out += text),
      err: (text: string) => (err += text),
      user: 'tester',
    };
    expect(await runLeadsCli(['list', '--json'], io)).toBe(0);
    expect(
      out
        .trim()
        .split('\n')
        .map((line) => (JSON.parse(line) as { fullName: string }).fullName),
    ).toEqual(['Migrated Person 0', 'Migrated Person 1', 'Migrated Person 2']);
    expect(await runStaffCli(['invite', 'ben@example.org'], io)).toBe(0);
    const reader = new pg.Pool({ connectionString: url, max: 1 });
    try {
      expect((await reader.query('SELECT email FROM invites')).rows).toEqual([{ email: 'ben@example.org' }]);
    } finally {
      await reader.end();
    }
    // The file's own backup is refused rather than run on the file while the server uses PostgreSQL.
    expect(await runLeadsCli(['backup', join(dir, 'copy.db')], io)).toBe(2);
    expect(err).toMatch(/backup works on the SQLite file LEADS_DB, not on DATABASE_URL/);
  });

  it('seals the values an older version stored in clear before they reach PostgreSQL', async () => {
    const legacyFile = join(dir, 'legacy.db');
    writeVersionOneFile(legacyFile);
    await admin.query('CREATE DATABASE legacy');
    const url = cluster.url.replace(/\/app$/, '/legacy');
    const env = {
      LEADS_DB: legacyFile,
      DATABASE_URL: url,
      LEADS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
    };
    let err = '';
    const io = { env, cwd: dir, out: () => undefined, err: (text: string) => (err += text), user: 'tester' };
    expect(await runLeadsCli(['migrate-to-postgres'], io), err).toBe(0);
    const reader = new pg.Pool({ connectionString: url, max: 1 });
    try {
      const { rows } = await reader.query<{ data: string; sealed: string }>('SELECT data, sealed FROM leads');
      expect(rows).toHaveLength(1);
      expect(`${rows[0]?.data}${rows[0]?.sealed}`).not.toMatch(/Quist|M-1/);
    } finally {
      await reader.end();
    }
  });

  it('rotates the key of PostgreSQL with DATABASE_URL: LEADS_ENCRYPTION_KEY=new,old reseals under the new', async () => {
    await admin.query('CREATE DATABASE rotated');
    const url = cluster.url.replace(/\/app$/, '/rotated');
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const server = await openPostgresLeadStore(url, { key: oldKey });
    const { id } = await server.insertLead({
      formId: 'consultation',
      source: '/',
      fields: { firstName: 'Ria' },
    });
    await server.close();
    const { code, out, err } = await runCli(runLeadsCli, ['rotate-key'], {
      env: { DATABASE_URL: url, LEADS_ENCRYPTION_KEY: `${newKey.toString('hex')},${oldKey.toString('hex')}` },
      cwd: dir,
      user: 'operator',
      rotateSettleMs: 10,
    });
    expect(code, err).toBe(0);
    expect(out).toMatch(/Done: 1 lead and notes sealed with key [0-9a-f]{16}\. .*may now be dropped/);
    const reader = await openPostgresLeadStore(url, { key: newKey });
    try {
      expect((await reader.getLead(id))?.data.firstName).toBe('Ria');
      expect((await reader.audit.page({ limit: 1 })).rows).toMatchObject([
        { actor: 'cli:operator', action: 'rotate-key' },
      ]);
    } finally {
      await reader.close();
    }
  });

  it('refuses a PostgreSQL database that holds leads under another key', async () => {
    await admin.query('CREATE DATABASE other_key');
    const url = cluster.url.replace(/\/app$/, '/other_key');
    await (await openPostgresLeadStore(url, { key: randomBytes(32) })).close();
    const refused = await cli(url);
    expect(refused.code).toBe(1);
    expect(refused.err).toMatch(/another key/);
  });
});
