// The alert bookkeeping the retry policy and the health check rely on: when an alert started waiting, rate-limited
// tries not counted, and counts of the alerts not delivered read from their own indexes.
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openLeadDatabase, SCHEMA_VERSION } from './lead-db.ts';
import { openLeadStore, type NewLead } from './lead-store.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dbFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'alert-backlog-'));
  dirs.push(dir);
  return join(dir, 'leads.db');
};

const lead: NewLead = {
  formId: 'insurance-verification',
  source: '/insurance',
  fields: { fullName: 'Jane Doe', phone: '(555) 010-4477' },
};

describe('alert bookkeeping', () => {
  it('records when an alert started waiting: its lead stored, or its revival by retry-dead', async () => {
    const store = openLeadStore(':memory:');
    const before = Date.now();
    const { id } = await store.insertLead(lead);
    const since = Date.parse((await store.getLead(id))?.createdAt ?? '');
    expect(since).toBeGreaterThanOrEqual(before);
    expect((await store.getAlert(id))?.pendingSince).toBe(since);
    const [claimed] = await store.claimDueAlerts({ now: Date.now() + 1, limit: 1, leaseMs: 1000 });
    expect(claimed?.pendingSince).toBe(since);
    await store.markDead(id, 'HTTP 503');
    expect(await store.retryDeadAlerts(since + 5000)).toBe(1);
    expect(await store.getAlert(id)).toMatchObject({
      status: 'pending',
      pendingSince: since + 5000,
      attempts: 0,
    });
    await store.close();
  });

  it('gives back the attempt of a try the webhook refused for rate limiting', async () => {
    const store = openLeadStore(':memory:');
    const { id } = await store.insertLead(lead);
    const now = Date.now() + 1;
    const [first] = await store.claimDueAlerts({ now, limit: 1, leaseMs: 10 });
    expect(first?.attempt).toBe(1);
    await store.scheduleRetry(id, now + 10, 'HTTP 429', { counted: false });
    expect(await store.getAlert(id)).toMatchObject({
      attempts: 0,
      lastError: 'HTTP 429',
      nextAttemptAt: now + 10,
    });
    const [again] = await store.claimDueAlerts({ now: now + 10, limit: 1, leaseMs: 10 });
    expect(again?.attempt).toBe(1);
    await store.scheduleRetry(id, now + 20, 'HTTP 503');
    expect((await store.getAlert(id))?.attempts).toBe(1);
    await store.close();
  });

  it('counts pending and dead alerts and finds the one waiting longest', async () => {
    const store = openLeadStore(':memory:');
    expect(await store.alertBacklog()).toEqual({ pending: 0, dead: 0, oldestPendingSince: undefined });
    const ids: string[] = [];
    for (let n = 0; n < 4; n += 1) ids.push((await store.insertLead(lead)).id);
    const [a, b, c] = ids as [string, string, string, string];
    await store.markDelivered(a, new Date());
    await store.markDead(b, 'HTTP 404');
    expect(await store.alertBacklog()).toEqual({
      pending: 2,
      dead: 1,
      oldestPendingSince: (await store.getAlert(c))?.pendingSince,
    });
    await store.close();
  });

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
