import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { beforeAll, describe, expect, it } from 'vitest';
import { openLeadStore } from '../store/sqlite/lead-store.ts';
import { runCli } from '../../tests/helpers/run-cli.ts';
import { useTempDirForAll } from '../../tests/helpers/temp-dir.ts';
import { parseSince, runLeadsCli, USAGE } from './leads.ts';

const folder = useTempDirForAll('leads-cli-');
let dir: string;
let dbFile: string;
let jane = '';
let sam = '';

beforeAll(async () => {
  dir = folder();
  dbFile = join(dir, 'leads.db');
  const store = openLeadStore(dbFile);
  jane = (
    await store.insertLead({
      formId: 'insurance-verification',
      source: '/insurance',
      fields: {
        fullName: 'Jane Doe',
        phone: '(555) 010-4477',
        insuranceProvider: 'aetna',
        dateOfBirth: '1987-03-14',
        memberId: 'XZH-99817234',
      },
    })
  ).id;
  sam = (
    await store.insertLead({
      formId: 'consultation',
      source: '/about',
      fields: {
        firstName: 'Sam',
        lastName: 'Lee',
        phone: '=HYPERLINK("http://evil.example")',
        urgency: 'urgent',
        message: 'Call after 5, "please"\nThanks',
      },
    })
  ).id;
  await store.markDelivered([jane], new Date('2026-01-08T17:31:00Z'));
  await store.claimDueAlerts({ now: Date.now() + 1, limit: 5, leaseMs: 1 });
  await store.markDead(sam, 'HTTP 404: no_service');
  await store.close();
  // Fixed times, so --since has something to leave out.
  const db = new Database(dbFile);
  db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run('2025-12-31T23:30:00.000Z', jane);
  db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run('2026-01-09T10:00:00.000Z', sam);
  db.close();
});

const cli = (args: string[], env: NodeJS.ProcessEnv = { LEADS_DB: dbFile }) =>
  runCli(runLeadsCli, args, { env, cwd: dir, now: () => new Date('2026-01-09T12:00:00Z'), user: 'operator' });

describe('npm run leads', () => {
  it('lists leads as a readable table, oldest first, without health details', async () => {
    const { code, out } = await cli(['list']);
    expect(code).toBe(0);
    const lines = out.trimEnd().split('\n');
    expect(lines[0]).toMatch(/^Received \(UTC\)\s+Form\s+Name\s+Phone\s+Alert\s+Lead ID$/);
    expect(lines[2]).toMatch(
      /^2025-12-31 23:30\s+insurance-verification\s+Jane Doe\s+\(555\) 010-4477\s+delivered\s+/,
    );
    expect(lines[2]).toContain(jane);
    expect(lines[3]).toMatch(/consultation\s+Sam Lee\s+.*\s+dead\s+/);
    expect(lines.at(-1)).toBe('2 leads');
    expect(out).not.toContain('XZH-99817234');
  });

  it('prints one JSON object per line with id, formId, createdAt, alert and the decrypted fields', async () => {
    const { code, out } = await cli(['list', '--json']);
    expect(code).toBe(0);
    const lines = out
      .trimEnd()
      .split('\n')
      .map((line) => JSON.parse(line) as Record<string, string>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toEqual({
      id: jane,
      formId: 'insurance-verification',
      createdAt: '2025-12-31T23:30:00.000Z',
      source: '/insurance',
      alert: 'delivered',
      fullName: 'Jane Doe',
      phone: '(555) 010-4477',
      insuranceProvider: 'aetna',
      dateOfBirth: '1987-03-14',
      memberId: 'XZH-99817234',
    });
    expect(lines[1]).toMatchObject({ id: sam, alert: 'dead', message: 'Call after 5, "please"\nThanks' });
  });

  it('lists only leads since a day, a time or a span', async () => {
    const idsOf = (out: string) =>
      out
        .trimEnd()
        .split('\n')
        .map((line) => (JSON.parse(line) as { id: string }).id);
    expect(idsOf((await cli(['list', '--json', '--since', '2026-01-01'])).out)).toEqual([sam]);
    expect(idsOf((await cli(['list', '--since', '2025-12-31T15:00-08:00', '--json'])).out)).toEqual([
      jane,
      sam,
    ]);
    expect((await cli(['list', '--json', '--since', '2026-01-10'])).out).toBe('');
    expect((await cli(['list', '--since', '2026-01-10'])).out).toBe('No leads.\n');
    expect(parseSince('24h', new Date('2026-01-09T12:00:00Z'))).toBe('2026-01-08T12:00:00.000Z');
    expect(parseSince('7d', new Date('2026-01-09T12:00:00Z'))).toBe('2026-01-02T12:00:00.000Z');
  });

  it('shows one lead in full, with labels, option names and the state of its alert', async () => {
    const shown = await cli(['show', jane]);
    expect(shown.code).toBe(0);
    expect(shown.out).toMatch(/^Lead ID:\s+\S+/);
    expect(shown.out).toMatch(/Form:\s+Insurance verification \(insurance-verification\)/);
    expect(shown.out).toMatch(/Date of Birth:\s+1987-03-14/);
    expect(shown.out).toMatch(/Member ID:\s+XZH-99817234/);
    // Stored sealed (store-contract-sealed-source.test.ts), shown as it was sent.
    expect(shown.out).toMatch(/Source page:\s+\/insurance\n/);
    expect(shown.out).toMatch(/Insurance Provider:\s+Aetna \(aetna\)/);
    expect(shown.out).toMatch(/Alert:\s+delivered 2026-01-08T17:31:00.000Z \(0 attempts\)/);
    const dead = await cli(['show', sam]);
    expect(dead.out).toMatch(/Alert:\s+dead after 1 attempt: run `npm run leads -- retry-dead`/);
    expect(dead.out).toMatch(/Last alert error:\s+HTTP 404: no_service/);
    // A line break typed by the visitor cannot forge another line of the report.
    expect(dead.out).toMatch(/Message \(optional\):\s+Call after 5, "please" Thanks/);
    expect(await cli(['show', 'no-such-id'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/No lead with id no-such-id/),
    });
  });

  it('exports every lead as CSV that a spreadsheet reads as data, never as formulas', async () => {
    const { code, out } = await cli(['export', '--csv']);
    expect(code).toBe(0);
    const rows = out.split('\r\n');
    expect(rows[0]).toBe(
      'id,formId,createdAt,source,alert,fullName,phone,insuranceProvider,dateOfBirth,memberId,firstName,lastName,urgency,message',
    );
    expect(rows[1]).toBe(
      `${jane},insurance-verification,2025-12-31T23:30:00.000Z,/insurance,delivered,Jane Doe,(555) 010-4477,aetna,1987-03-14,XZH-99817234,,,,`,
    );
    expect(out).toContain(`'=HYPERLINK(""http://evil.example"")`);
    expect(out).toContain('"Call after 5, ""please""\nThanks"');
  });

  it('writes every read of leads in the audit log, with the operating-system user, before showing it', async () => {
    const newest = async (limit: number) => {
      const store = openLeadStore(dbFile, { writerThread: false, createKeyFile: false });
      try {
        return (await store.audit.page({ limit })).rows.map(({ actor, action, leadId, detail }) => ({
          actor,
          action,
          leadId,
          detail,
        }));
      } finally {
        await store.close();
      }
    };
    await cli(['list', '--since', '2026-01-01']);
    await cli(['show', jane]);
    await cli(['export', '--csv']);
    expect(await newest(3)).toEqual([
      { actor: 'cli:operator', action: 'cli-read', leadId: null, detail: 'export count=2' },
      { actor: 'cli:operator', action: 'cli-read', leadId: jane, detail: 'show' },
      { actor: 'cli:operator', action: 'cli-read', leadId: null, detail: 'list count=1' },
    ]);
    const before = (await newest(1000)).length;
    await cli(['show', 'no-such-id']);
    expect(await newest(1000)).toHaveLength(before);
  });

  it('rotates the key of a key file: a new key seals everything, and the file holds it alone', async () => {
    const file = join(dir, 'rotating.db');
    const store = openLeadStore(file);
    const { id } = await store.insertLead({
      formId: 'consultation',
      source: '/',
      fields: { firstName: 'Ria' },
    });
    await store.close();
    const oldKey = readFileSync(`${file}.key`, 'utf8');
    let out = '';
    const run = (args: string[]) =>
      runLeadsCli(args, {
        env: { LEADS_DB: file },
        cwd: dir,
        out: (text) => (out += text),
        err: (text) => (out += text),
        user: 'operator',
        rotateSettleMs: 10,
      });
    expect(await run(['rotate-key'])).toBe(0);
    expect(out).toMatch(
      /Done: 1 lead and notes sealed with key [0-9a-f]{16}\. .*rotating\.db\.key now holds that key alone/,
    );
    const newKey = readFileSync(`${file}.key`, 'utf8');
    expect(newKey).toMatch(/^[0-9a-f]{64}\n$/);
    expect(newKey).not.toBe(oldKey);
    out = '';
    expect(await run(['show', id])).toBe(0);
    expect(out).toMatch(/First Name:\s+Ria/);
  });

  it('puts dead alerts back to pending', async () => {
    expect(await cli(['retry-dead'])).toMatchObject({
      code: 0,
      out: expect.stringMatching(/^1 dead chat alert put back to pending/),
    });
    expect((await cli(['list', '--json'])).out).toContain('"alert":"pending"');
    expect((await cli(['retry-dead'])).out).toBe('No dead chat alerts.\n');
  });

  it('explains wrong arguments, a missing database and a missing or wrong key', async () => {
    for (const args of [
      [],
      ['lis'],
      ['list', '--csv'],
      ['list', '--since'],
      ['list', '--since', 'yesterday'],
      ['show'],
      ['export'],
      ['retry-dead', 'now'],
      ['backup'],
      ['backup', 'a.db', 'b.db'],
      ['backup', '--csv', 'a.db'],
    ]) {
      const { code, err } = await cli(args);
      expect(code, args.join(' ')).toBe(2);
      expect(err, args.join(' ')).toContain(USAGE);
    }
    expect(await cli(['--help'])).toMatchObject({ code: 0, out: USAGE });
    expect(await cli(['list'], { LEADS_DB: join(dir, 'missing.db') })).toMatchObject({
      code: 1,
      err: expect.stringMatching(/^No lead database at .*missing\.db\. Set LEADS_DB/),
    });
    expect(await cli(['list'], { LEADS_DB: dbFile, LEADS_ENCRYPTION_KEY: 'ab'.repeat(32) })).toMatchObject({
      code: 1,
      err: expect.stringMatching(/does not match/),
    });
    expect(await cli(['list'], { LEADS_DB: dbFile, LEADS_ENCRYPTION_KEY: 'short' })).toMatchObject({
      code: 1,
      err: expect.stringMatching(/LEADS_ENCRYPTION_KEY must be 64 hexadecimal characters/),
    });
  });

  it('backs the database up to a new file, as stored (encrypted), and never over an existing one', async () => {
    const { code, out, err } = await cli(['backup', 'copies/leads-copy.db']);
    expect(err).toBe('');
    expect(code).toBe(0);
    expect(out).toMatch(/^Backed up 2 leads to .*copies\/leads-copy\.db \(\d+ KB\)\. Its health details/);
    const copy = join(dir, 'copies', 'leads-copy.db');
    const db = new Database(copy, { readonly: true });
    const sealed = db.prepare('SELECT sealed FROM leads WHERE id = ?').pluck().get(jane) as string;
    expect(db.pragma('journal_mode', { simple: true })).toBe('delete');
    db.close();
    expect(sealed).toMatch(/"memberId":"v2\./);
    // Audited in the database, before the copy was taken: the copy holds its own row too.
    const backupRow = { actor: 'cli:operator', action: 'backup', detail: 'file=leads-copy.db' };
    const audited = openLeadStore(dbFile, { writerThread: false });
    try {
      expect((await audited.audit.page({ limit: 1 })).rows[0]).toMatchObject(backupRow);
      expect(await audited.audit.verify()).toMatchObject({ ok: true });
    } finally {
      await audited.close();
    }
    const inCopy = new Database(copy, { readonly: true });
    expect(inCopy.prepare('SELECT actor, action, detail FROM audit ORDER BY seq DESC LIMIT 1').get()).toEqual(
      backupRow,
    );
    inCopy.close();
    // The copy reads back with the database's key file.
    const listed = await cli(['list', '--json'], { LEADS_DB: copy, LEADS_KEY_FILE: `${dbFile}.key` });
    expect(listed.out).toContain('XZH-99817234');
    expect(await cli(['backup', 'copies/leads-copy.db'])).toMatchObject({
      code: 1,
      err: expect.stringMatching(/leads-copy\.db exists already/),
    });
  });
});
