// `npm start` keeps leads LEADS_RETENTION_DAYS days: at start (and every hour after) it purges older ones with their
// alerts and notes, logs how many, and writes the purge to the audit log, which it keeps.
import { randomBytes } from 'node:crypto';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { startServerProcess } from '../../../scripts/lib/server-process.ts';
import { createdId, postJson, validLead, waitFor, writeClientDir } from '../../helpers/fixtures.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';

// Asked for before the clean-ups, so removed after them (vitest runs "after" hooks in reverse).
const tempDir = useTempDir('server-test-');
const cleanups: (() => Promise<void> | void)[] = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('retention', () => {
  it('purges at start the leads older than LEADS_RETENTION_DAYS, and only those, and logs and audits the count', async () => {
    const dir = tempDir();
    const dbFile = join(dir, 'data', 'leads.db');
    const env = {
      LEADS_DB: dbFile,
      LEADS_ENCRYPTION_KEY: randomBytes(32).toString('hex'),
      CLIENT_DIR: writeClientDir(dir),
      LEADS_RETENTION_DAYS: '30',
    };
    const first = await startServerProcess({ env });
    cleanups.push(() => first.stop('SIGKILL'));
    const api = `${first.url}/api/forms/insurance-verification`;
    const old = await createdId(await postJson(api, validLead));
    const kept = await createdId(await postJson(api, { ...validLead, fullName: 'Kept Person' }));
    await first.stop();

    // One lead received 31 days ago, the other today.
    const db = new Database(dbFile);
    const monthAgo = new Date(Date.now() - 31 * 24 * 60 * 60 * 1000).toISOString();
    db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run(monthAgo, old);
    db.close();

    const second = await startServerProcess({ env });
    cleanups.push(() => second.stop('SIGKILL'));
    const purged = await waitFor(() =>
      second.logs().find((line) => line.msg === 'purged leads past retention'),
    );
    expect(purged).toMatchObject({ purged: 1, days: 30 });
    await second.stop();

    const after = new Database(dbFile, { readonly: true });
    cleanups.push(() => void after.close());
    const ids = (table: string, column: string) =>
      after
        .prepare(`SELECT ${column} AS id FROM ${table}`)
        .all()
        .map((row) => (row as { id: string }).id);
    expect(ids('leads', 'id')).toEqual([kept]);
    expect(ids('alerts', 'lead_id')).toEqual([kept]);
    expect(after.prepare("SELECT actor, detail FROM audit WHERE action = 'purge'").all()).toEqual([
      { actor: 'server', detail: 'count=1' },
    ]);
  });
});
