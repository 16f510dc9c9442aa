// The alert bookkeeping on SQLite only: the counts of the alerts not delivered read from their own indexes, and alerts
// of files older versions wrote. The bookkeeping itself (when an alert started waiting, rate-limited tries not counted,
// the counts) is tested on both stores in store-contract-leads.test.ts.
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { openLeadDatabase, SCHEMA_VERSION } from './schema.ts';
import { openLeadStore } from './lead-store.ts';

const tempDir = useTempDir('alert-backlog-');
const dbFile = () => join(tempDir(), 'leads.db');

describe('alert bookkeeping (SQLite)', () => {
  it('reads the counts from indexes of the undelivered alerts only, never scanning the delivered ones', () => {
    const db = openLeadDatabase(':memory:');
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    expect(plan("SELECT COUNT(*) FROM alerts WHERE status = 'pending'")).toMatch(/alerts_pending_since/);
    expect(plan("SELECT COUNT(*) FROM alerts WHERE status = 'dead'")).toMatch(/alerts_dead/);
    expect(plan("SELECT MIN(pending_since) FROM alerts WHERE status = 'pending'")).toMatch(
      /SEARCH alerts USING COVERING INDEX alerts_pending_since/,
    );
    db.close();
  });

  it('gives the alerts of an older database the time their lead was stored', async () => {
    const file = dbFile();
    mkdirSync(dirname(file), { recursive: true });
    const v2 = openLeadDatabase(file, 2);
    v2.prepare(
      "INSERT INTO leads (id, form_id, created_at, source, data) VALUES ('old-1', 'f', '2025-01-01T00:00:00.123Z', '/', '{}')",
    ).run();
    v2.prepare("INSERT INTO alerts (lead_id, status, next_attempt_at) VALUES ('old-1', 'pending', 0)").run();
    v2.close();

    const store = openLeadStore(file);
    expect((await store.getAlert('old-1'))?.pendingSince).toBe(Date.parse('2025-01-01T00:00:00.123Z'));
    expect(await store.alertBacklog()).toEqual({
      pending: 1,
      dead: 0,
      oldestPendingSince: Date.parse('2025-01-01T00:00:00.123Z'),
    });
    await store.close();
    const db = new Database(file, { readonly: true });
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    db.close();
  });
});
