import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createHash, randomBytes } from 'node:crypto';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { QueueFullError } from './batch-writer.ts';
import { openLeadDatabase, SCHEMA_VERSION } from './lead-db.ts';
import { KeyError } from './lead-key.ts';
import { IDEMPOTENCY_TTL_MS, openLeadStore, type NewLead } from './lead-store.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dbFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lead-store-'));
  dirs.push(dir);
  return join(dir, 'nested', 'leads.db');
};
const raw = <T>(file: string, sql: string, ...params: unknown[]): T => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
};

const lead = (extra: Partial<NewLead> = {}): NewLead => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: {
    fullName: 'Jane Doe',
    phone: '(555) 010-4477',
    dateOfBirth: '1987-03-14',
    memberId: 'XZH-99817234',
  },
  ...extra,
});

describe('lead store', () => {
  it('creates its folder and schema, durable settings and a schema version', async () => {
    const file = dbFile();
    await openLeadStore(file).close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('stores a lead with a pending alert, and keeps both across a reopen', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    const { id, replayed } = await store.insertLead(lead());
    expect(replayed).toBe(false);
    await store.close();
    const again = openLeadStore(file);
    expect(await again.getLead(id)).toMatchObject({
      formId: 'insurance-verification',
      source: '/insurance',
      data: {
        fullName: 'Jane Doe',
        phone: '(555) 010-4477',
        dateOfBirth: '1987-03-14',
        memberId: 'XZH-99817234',
      },
    });
    expect(await again.getAlert(id)).toMatchObject({ status: 'pending', attempts: 0 });
    await again.close();
  });

  it('writes every value sealed: the row holds no plaintext of them', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    const { id } = await store.insertLead(lead());
    await store.close();
    const row = raw<{ data: string; sealed: string }>(
      file,
      'SELECT data, sealed FROM leads WHERE id = ?',
      id,
    );
    expect(JSON.parse(row.data)).toEqual({});
    const sealed = JSON.parse(row.sealed) as Record<string, string>;
    expect(Object.keys(sealed).sort()).toEqual(['dateOfBirth', 'fullName', 'memberId', 'phone']);
    for (const value of Object.values(sealed)) expect(value).toMatch(/^v2\.[0-9a-f]{16}\./);
    for (const clear of ['1987-03-14', 'XZH-99817234', 'Jane', '010-4477'])
      expect(row.sealed).not.toContain(clear);
  });

  it('commits submissions of the same moment together, each with its own result', async () => {
    const store = openLeadStore(dbFile());
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => store.insertLead(lead({ fields: { fullName: `Person ${n}` } }))),
    );
    expect(new Set(results.map((result) => result.id)).size).toBe(50);
    expect(await store.listLeads()).toHaveLength(50);
    expect((await store.getLead(results[7]?.id ?? ''))?.data.fullName).toBe('Person 7');
    await store.close();
  });

  it('stores one lead per Idempotency-Key and form, even when both copies arrive at once', async () => {
    const store = openLeadStore(dbFile());
    const [first, second] = await Promise.all([
      store.insertLead(lead({ idempotencyKey: 'key-0001' })),
      store.insertLead(lead({ idempotencyKey: 'key-0001' })),
    ]);
    expect(first).toMatchObject({ replayed: false });
    expect(second).toEqual({ id: first?.id, replayed: true });
    const later = await store.insertLead(lead({ idempotencyKey: 'key-0001' }));
    expect(later).toEqual({ id: first?.id, replayed: true });
    const otherForm = await store.insertLead(lead({ formId: 'consultation', idempotencyKey: 'key-0001' }));
    expect(otherForm.replayed).toBe(false);
    expect(await store.listLeads()).toHaveLength(2);
    await store.close();
  });

  it('refuses an Idempotency-Key sent again with another fingerprint, and writes nothing', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    const first = await store.insertLead(
      lead({ idempotencyKey: 'key-0003', fingerprint: store.fingerprint('a') }),
    );
    const same = await store.insertLead(
      lead({ idempotencyKey: 'key-0003', fingerprint: store.fingerprint('a') }),
    );
    expect(same).toEqual({ id: first.id, replayed: true });
    const other = await store.insertLead(
      lead({ idempotencyKey: 'key-0003', fingerprint: store.fingerprint('b') }),
    );
    expect(other).toMatchObject({ conflict: true });
    expect(await store.listLeads()).toHaveLength(1);
    // Keyed: the database holds neither the text nor its plain hash.
    const stored = raw<{ fingerprint: string }>(file, 'SELECT fingerprint FROM idempotency_keys');
    expect(stored.fingerprint).toBe(store.fingerprint('a'));
    expect(stored.fingerprint).not.toBe(createHash('sha256').update('a').digest('base64url'));
    await store.close();
  });

  it('forgets an Idempotency-Key after its time', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    const first = await store.insertLead(lead({ idempotencyKey: 'key-0002' }));
    const db = new Database(file);
    db.prepare('UPDATE idempotency_keys SET created_at = ?').run(Date.now() - IDEMPOTENCY_TTL_MS - 1000);
    db.close();
    const second = await store.insertLead(lead({ idempotencyKey: 'key-0002' }));
    expect(second.replayed).toBe(false);
    expect(second.id).not.toBe(first.id);
    await store.close();
  });

  it('gives the alert worker the lead with its values opened (its message builder picks what to show)', async () => {
    const store = openLeadStore(dbFile());
    const { id } = await store.insertLead(lead());
    const [due] = await store.claimDueAlerts({ now: Date.now() + 1, limit: 5, leaseMs: 1000 });
    expect(due?.lead).toMatchObject({ id, data: lead().fields });
    await store.close();
  });

  it('claims a due alert once, hiding it for the lease, and counts the attempt', async () => {
    const store = openLeadStore(dbFile());
    const { id } = await store.insertLead(lead());
    const now = Date.now() + 1;
    const [claimed] = await store.claimDueAlerts({ now, limit: 5, leaseMs: 1000 });
    expect(claimed).toMatchObject({ lead: { id }, attempt: 1 });
    expect(await store.claimDueAlerts({ now, limit: 5, leaseMs: 1000 })).toEqual([]);
    expect(await store.nextAlertDueAt()).toBe(now + 1000);
    expect((await store.claimDueAlerts({ now: now + 1000, limit: 5, leaseMs: 1000 }))[0]?.attempt).toBe(2);
    await store.scheduleRetry(id, now + 5000, 'HTTP 500');
    expect(await store.getAlert(id)).toMatchObject({
      nextAttemptAt: now + 5000,
      lastError: 'HTTP 500',
      attempts: 2,
    });
    await store.markDead(id, 'HTTP 404');
    expect(await store.nextAlertDueAt()).toBeUndefined();
    expect(await store.getAlert(id)).toMatchObject({ status: 'dead', lastError: 'HTTP 404' });
    await store.close();
  });

  it('marks an alert delivered', async () => {
    const store = openLeadStore(':memory:');
    const { id } = await store.insertLead(lead());
    await store.markDelivered(id, new Date('2026-01-08T00:00:00Z'));
    expect(await store.getAlert(id)).toMatchObject({
      status: 'delivered',
      deliveredAt: '2026-01-08T00:00:00.000Z',
    });
    await store.close();
  });

  it('puts dead alerts back to pending with fresh attempts', async () => {
    const store = openLeadStore(dbFile());
    const dead = await store.insertLead(lead());
    const delivered = await store.insertLead(lead());
    await store.claimDueAlerts({ now: Date.now() + 1, limit: 5, leaseMs: 1000 });
    await store.markDead(dead.id, 'HTTP 404');
    await store.markDelivered(delivered.id, new Date());
    expect(await store.retryDeadAlerts(123)).toBe(1);
    expect(await store.getAlert(dead.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 123,
    });
    expect((await store.getAlert(delivered.id))?.status).toBe('delivered');
    expect(await store.retryDeadAlerts(123)).toBe(0);
    await store.close();
  });

  it('lists leads oldest first with their alert status, from a given time', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    const old = await store.insertLead(lead({ fields: { ...lead().fields, fullName: 'Old' } }));
    const fresh = await store.insertLead(lead({ fields: { fullName: 'Fresh' } }));
    const db = new Database(file);
    db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run('2025-12-31T23:00:00.000Z', old.id);
    db.close();
    await store.markDelivered(old.id, new Date());
    expect((await store.listLeads()).map((listed) => [listed.data.fullName, listed.alert])).toEqual([
      ['Old', 'delivered'],
      ['Fresh', 'pending'],
    ]);
    expect((await store.listLeads({ since: '2026-01-01T00:00:00.000Z' })).map((listed) => listed.id)).toEqual(
      [fresh.id],
    );
    expect((await store.listLeads())[0]?.data.memberId).toBe('XZH-99817234');
    await store.close();
  });

  it('refuses a key that is not the one the database was written with, and a missing key file', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    await store.insertLead(lead());
    await store.close();
    expect(() => openLeadStore(file, { key: randomBytes(32) })).toThrow(KeyError);
    expect(() => openLeadStore(file, { key: randomBytes(32) })).toThrow(/does not match .*key id/);
    rmSync(`${file}.key`);
    // A new key file would make the sealed values unreadable for good: refused instead.
    expect(() => openLeadStore(file)).toThrow(/No encryption key/);
  });

  it('seals every clear value of leads stored by older versions, once, and makes them searchable', async () => {
    const file = dbFile();
    mkdirSync(dirname(file), { recursive: true });
    const v1 = openLeadDatabase(file, 1);
    v1.prepare(
      "INSERT INTO leads VALUES ('old-1', 'insurance-verification', '2025-01-01T00:00:00.000Z', '/', ?)",
    ).run(JSON.stringify({ fullName: 'Jane Quist', memberId: 'M-1' }));
    v1.prepare(
      "INSERT INTO alerts VALUES ('old-1', 'delivered', 1, 0, NULL, '2025-01-01T00:00:01.000Z')",
    ).run();
    v1.close();

    const store = openLeadStore(file);
    expect(await store.sealLegacyLeads()).toBe(1);
    expect(await store.sealLegacyLeads()).toBe(0);
    expect((await store.getLead('old-1'))?.data).toEqual({ fullName: 'Jane Quist', memberId: 'M-1' });
    expect((await store.inbox.list({ q: 'quist', limit: 5 })).rows.map((row) => row.id)).toEqual(['old-1']);
    await store.close();
    const row = raw<{ data: string; sealed: string }>(
      file,
      "SELECT data, sealed FROM leads WHERE id = 'old-1'",
    );
    expect(row.data).toBe('{}');
    expect(Object.keys(JSON.parse(row.sealed) as object).sort()).toEqual(['fullName', 'memberId']);
    expect(row.sealed).not.toContain('Quist');
  });

  it('refuses a database written by a newer version', async () => {
    const file = dbFile();
    await openLeadStore(file).close();
    const db = new Database(file);
    db.pragma('user_version = 99');
    db.close();
    expect(() => openLeadStore(file)).toThrow(/newer/);
  });

  it('while another connection holds the lock: refuses a lead at once beyond the queue, and drops the waiting ones unwritten at their deadline', async () => {
    const file = dbFile();
    const store = openLeadStore(file, { maxQueuedWrites: 2 });
    const { id } = await store.insertLead(lead());
    const holder = new Database(file);
    holder.exec('BEGIN EXCLUSIVE');
    try {
      const deadline = Date.now() + 1_500;
      const inFlight = store.insertLead(lead({ idempotencyKey: 'in-flight' }), { deadline });
      await new Promise((resolve) => setImmediate(resolve));
      const queued = ['queued-1', 'queued-2'].map((key) =>
        store.insertLead(lead({ idempotencyKey: key }), { deadline }),
      );
      await expect(store.insertLead(lead({ idempotencyKey: 'refused' }))).rejects.toBeInstanceOf(
        QueueFullError,
      );
      const settled = await Promise.allSettled([inFlight, ...queued]);
      expect(settled.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    } finally {
      holder.exec('ROLLBACK');
      holder.close();
    }
    const { id: next } = await store.insertLead(lead());
    expect((await store.listLeads()).map((stored) => stored.id)).toEqual([id, next]);
    await store.close();
  });
});
