import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { openLeadStore } from './lead-store.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dbFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lead-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'leads.db');
};

describe('lead store', () => {
  it('creates its folder and schema, durable settings and a schema version', () => {
    const file = dbFile();
    openLeadStore(file).close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(1);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('stores a lead with a pending alert, and keeps both across a reopen', () => {
    const file = dbFile();
    const store = openLeadStore(file);
    const id = store.insertLead('insurance-verification', { fullName: 'Jane' }, '/');
    store.close();
    const again = openLeadStore(file);
    expect(again.getLead(id)).toMatchObject({ formId: 'insurance-verification', data: { fullName: 'Jane' } });
    expect(again.getAlert(id)).toMatchObject({ status: 'pending', attempts: 0 });
    again.close();
  });

  it('claims a due alert once, hiding it for the lease, and counts the attempt', () => {
    const store = openLeadStore(dbFile());
    const id = store.insertLead('f', {}, '/');
    const now = Date.now() + 1;
    const [claimed] = store.claimDueAlerts({ now, limit: 5, leaseMs: 1000 });
    expect(claimed).toMatchObject({ lead: { id }, attempt: 1 });
    expect(store.claimDueAlerts({ now, limit: 5, leaseMs: 1000 })).toEqual([]);
    expect(store.nextAlertDueAt()).toBe(now + 1000);
    expect(store.claimDueAlerts({ now: now + 1000, limit: 5, leaseMs: 1000 })[0]?.attempt).toBe(2);
    store.scheduleRetry(id, now + 5000, 'HTTP 500');
    expect(store.getAlert(id)).toMatchObject({
      nextAttemptAt: now + 5000,
      lastError: 'HTTP 500',
      attempts: 2,
    });
    store.markDead(id, 'HTTP 404');
    expect(store.nextAlertDueAt()).toBeUndefined();
    expect(store.getAlert(id)).toMatchObject({ status: 'dead', lastError: 'HTTP 404' });
    store.close();
  });

  it('marks an alert delivered', () => {
    const store = openLeadStore(':memory:');
    const id = store.insertLead('f', {}, '/');
    store.markDelivered(id, new Date('2026-01-08T00:00:00Z'));
    expect(store.getAlert(id)).toMatchObject({
      status: 'delivered',
      deliveredAt: '2026-01-08T00:00:00.000Z',
    });
    store.close();
  });

  it('refuses a database written by a newer version', () => {
    const file = dbFile();
    openLeadStore(file).close();
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openLeadStore(file)).toThrow(/newer/);
  });
});
