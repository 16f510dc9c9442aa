// The lead store's contract, part two (store-contract.test.ts is part one): storing, sealing, idempotency and the
// alert book, each test run against SQLite and a real PostgreSQL (tests/helpers/store-kinds.ts). What only SQLite has
// (its file, WAL, schema upgrades of old files, the batch writer's queue) is tested in sqlite/lead-store.test.ts.
import { createHash, randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { sampleLead, storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { KeyError } from '../shared/key-file.ts';
import { IDEMPOTENCY_TTL_MS } from '../shared/idempotency.ts';

const lead = sampleLead;

describe.each(storeKinds())('the $name lead store', (kind) => {
  it('stores a lead with a pending alert, and keeps both across a reopen', async () => {
    const { store, again } = await kind.open();
    const { id, replayed } = await store.insertLead(lead());
    expect(replayed).toBe(false);
    await store.close();
    const reopened = await again();
    expect(await reopened.getLead(id)).toMatchObject({
      formId: 'insurance-verification',
      source: '/insurance',
      data: lead().fields,
    });
    expect(await reopened.getAlert(id)).toMatchObject({ status: 'pending', attempts: 0 });
  });

  it('writes every value sealed: the row holds no plaintext of them', async () => {
    const { store, raw } = await kind.open();
    await store.insertLead(lead());
    const [row] = (await raw('SELECT data, sealed FROM leads')) as { data: string; sealed: string }[];
    expect(JSON.parse(row?.data ?? '')).toEqual({});
    const sealed = JSON.parse(row?.sealed ?? '') as Record<string, string>;
    expect(Object.keys(sealed).sort()).toEqual(['dateOfBirth', 'fullName', 'memberId', 'phone']);
    for (const value of Object.values(sealed)) expect(value).toMatch(/^v2\.[0-9a-f]{16}\./);
    for (const clear of ['1987-03-14', 'XZH-99817234', 'Jane', '010-4477'])
      expect(row?.sealed).not.toContain(clear);
  });

  it('commits submissions of the same moment together, each with its own result', async () => {
    const { store } = await kind.open();
    const results = await Promise.all(
      Array.from({ length: 50 }, (_, n) => store.insertLead(lead({ fields: { fullName: `Person ${n}` } }))),
    );
    expect(new Set(results.map((result) => result.id)).size).toBe(50);
    expect(await store.listLeads()).toHaveLength(50);
    expect((await store.getLead(results[7]?.id ?? ''))?.data.fullName).toBe('Person 7');
  });

  it('stores one lead per Idempotency-Key and form, even when both copies arrive at once', async () => {
    const { store } = await kind.open();
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
  });

  it('refuses an Idempotency-Key sent again with another fingerprint, and writes nothing', async () => {
    const { store, raw } = await kind.open();
    const sent = (text: string) => lead({ idempotencyKey: 'key-0003', fingerprint: store.fingerprint(text) });
    const first = await store.insertLead(sent('a'));
    expect(await store.insertLead(sent('a'))).toEqual({ id: first.id, replayed: true });
    expect(await store.insertLead(sent('b'))).toMatchObject({ conflict: true });
    expect(await store.listLeads()).toHaveLength(1);
    // Keyed: the database holds neither the text nor its plain hash.
    const [stored] = await raw('SELECT fingerprint FROM idempotency_keys');
    expect(stored?.fingerprint).toBe(store.fingerprint('a'));
    expect(stored?.fingerprint).not.toBe(createHash('sha256').update('a').digest('base64url'));
  });

  it('forgets an Idempotency-Key after its time', async () => {
    const { store, sql } = await kind.open();
    const first = await store.insertLead(lead({ idempotencyKey: 'key-0002' }));
    await sql('UPDATE idempotency_keys SET created_at = $1', [Date.now() - IDEMPOTENCY_TTL_MS - 1000]);
    const second = await store.insertLead(lead({ idempotencyKey: 'key-0002' }));
    expect(second.replayed).toBe(false);
    expect(second.id).not.toBe(first.id);
  });

  it('gives the alert worker the lead with its values opened (its message builder picks what to show)', async () => {
    const { store } = await kind.open();
    const { id } = await store.insertLead(lead());
    const [due] = await store.claimDueAlerts({ now: Date.now() + 1, limit: 5, leaseMs: 1000 });
    expect(due?.lead).toMatchObject({ id, data: lead().fields });
  });

  it('claims a due alert once, hiding it for the lease, and counts the attempt', async () => {
    const { store } = await kind.open();
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
  });

  it('marks the alerts of a round delivered in one call, and no other', async () => {
    const { store } = await kind.open();
    const [first, second, third] = await Promise.all([1, 2, 3].map(() => store.insertLead(lead())));
    await store.markDelivered([first?.id ?? '', third?.id ?? ''], new Date('2026-01-08T00:00:00Z'));
    for (const { id } of [first, third].filter((result) => result !== undefined))
      expect(await store.getAlert(id)).toMatchObject({
        status: 'delivered',
        deliveredAt: '2026-01-08T00:00:00.000Z',
      });
    expect(await store.getAlert(second?.id ?? '')).toMatchObject({ status: 'pending', deliveredAt: null });
  });

  it('puts dead alerts back to pending with fresh attempts', async () => {
    const { store } = await kind.open();
    const dead = await store.insertLead(lead());
    const delivered = await store.insertLead(lead());
    await store.claimDueAlerts({ now: Date.now() + 1, limit: 5, leaseMs: 1000 });
    await store.markDead(dead.id, 'HTTP 404');
    await store.markDelivered([delivered.id], new Date());
    expect(await store.retryDeadAlerts(123)).toBe(1);
    expect(await store.getAlert(dead.id)).toMatchObject({
      status: 'pending',
      attempts: 0,
      nextAttemptAt: 123,
    });
    expect((await store.getAlert(delivered.id))?.status).toBe('delivered');
    expect(await store.retryDeadAlerts(123)).toBe(0);
  });

  it('lists leads oldest first with their alert status, from a given time', async () => {
    const { store, sql } = await kind.open();
    const old = await store.insertLead(lead({ fields: { ...lead().fields, fullName: 'Old' } }));
    const fresh = await store.insertLead(lead({ fields: { fullName: 'Fresh' } }));
    await sql('UPDATE leads SET created_at = $1 WHERE id = $2', ['2025-12-31T23:00:00.000Z', old.id]);
    await store.markDelivered([old.id], new Date());
    expect((await store.listLeads()).map((listed) => [listed.data.fullName, listed.alert])).toEqual([
      ['Old', 'delivered'],
      ['Fresh', 'pending'],
    ]);
    expect((await store.listLeads({ since: '2026-01-01T00:00:00.000Z' })).map((listed) => listed.id)).toEqual(
      [fresh.id],
    );
    expect((await store.listLeads())[0]?.data.memberId).toBe('XZH-99817234');
  });

  it('refuses a key that is not the one the database was written with', async () => {
    const { store, again } = await kind.open();
    await store.insertLead(lead());
    await expect(again({ key: randomBytes(32) })).rejects.toThrow(KeyError);
    await expect(again({ key: randomBytes(32) })).rejects.toThrow(/does not match .*key id/);
  });

  it('refuses a database written by a newer version', async () => {
    const { sql, again } = await kind.open();
    await sql(
      kind.name === 'sqlite'
        ? 'PRAGMA user_version = 99'
        : 'INSERT INTO schema_version (version) VALUES (99)',
    );
    await expect(again()).rejects.toThrow(/newer/);
  });

  it('records when an alert started waiting: its lead stored, or its revival by retry-dead', async () => {
    const { store } = await kind.open();
    const before = Date.now();
    const { id } = await store.insertLead(lead());
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
  });

  it('gives back the attempt of a try the webhook refused for rate limiting', async () => {
    const { store } = await kind.open();
    const { id } = await store.insertLead(lead());
    const now = Date.now() + 1;
    const [first] = await store.claimDueAlerts({ now, limit: 1, leaseMs: 10 });
    expect(first?.attempt).toBe(1);
    await store.scheduleRetry(id, now + 10, 'HTTP 429', { counted: false });
    expect(await store.getAlert(id)).toMatchObject({
      attempts: 0,
      lastError: 'HTTP 429',
      nextAttemptAt: now + 10,
    });
    const [retried] = await store.claimDueAlerts({ now: now + 10, limit: 1, leaseMs: 10 });
    expect(retried?.attempt).toBe(1);
    await store.scheduleRetry(id, now + 20, 'HTTP 503');
    expect((await store.getAlert(id))?.attempts).toBe(1);
  });

  it('counts pending and dead alerts and finds the one waiting longest', async () => {
    const { store } = await kind.open();
    expect(await store.alertBacklog()).toEqual({ pending: 0, dead: 0, oldestPendingSince: undefined });
    const ids: string[] = [];
    for (let n = 0; n < 4; n += 1) ids.push((await store.insertLead(lead())).id);
    const [a, b, c] = ids as [string, string, string, string];
    await store.markDelivered([a], new Date());
    await store.markDead(b, 'HTTP 404');
    expect(await store.alertBacklog()).toEqual({
      pending: 2,
      dead: 1,
      oldestPendingSince: (await store.getAlert(c))?.pendingSince,
    });
  });
});
