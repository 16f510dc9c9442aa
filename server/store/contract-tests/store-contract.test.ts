// One contract, both stores: every test here runs against SQLite and a real PostgreSQL (tests/helpers/store-kinds.ts),
// and asserts what the store answers and what its database holds.
import { describe, expect, it } from 'vitest';
import { namedLead as lead, storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';

const forms = loadForms();

describe.each(storeKinds())('the $name lead store', (kind) => {
  it('commits a lead with its pending alert, every value sealed before the database sees it', async () => {
    const { store, raw } = await kind.open(forms);
    const { id, replayed } = await store.insertLead(lead());
    expect(replayed).toBe(false);
    expect((await store.getLead(id))?.data).toEqual(lead().fields);
    expect(await store.getAlert(id)).toMatchObject({ status: 'pending', attempts: 0, lastError: null });
    const [row] = await raw(`SELECT data, sealed FROM leads`);
    expect(row?.data).toBe('{}');
    expect(String(row?.sealed)).not.toMatch(/Jane|Quist|4477|XZH/);
    expect(await store.listLeads()).toMatchObject([{ id, alert: 'pending' }]);
  });

  it('stores one lead per idempotency key, across instances and at the same moment', async () => {
    const { store, again, raw } = await kind.open(forms);
    const other = await again();
    const sent = lead('Jane Quist', { idempotencyKey: 'k-1', fingerprint: 'f-1' });
    const results = await Promise.all([store, other, store, other].map((each) => each.insertLead(sent)));
    const ids = new Set(results.map((result) => result.id));
    expect(ids.size).toBe(1);
    expect(results.filter((result) => !result.replayed)).toHaveLength(1);
    expect(await raw('SELECT id FROM leads')).toHaveLength(1);
    const changed = await other.insertLead({ ...sent, fingerprint: 'f-2' });
    expect(changed).toMatchObject({ replayed: true, conflict: true });
  });

  it('claims each due alert for one instance at a time, and again once its lease ran out', async () => {
    const { store, again } = await kind.open(forms);
    const other = await again();
    const stored = await Promise.all(
      Array.from({ length: 6 }, (_, n) => store.insertLead(lead(`Person ${n}`))),
    );
    const now = Date.now() + 1000;
    const claims = await Promise.all([
      store.claimDueAlerts({ now, limit: 4, leaseMs: 60_000 }),
      other.claimDueAlerts({ now, limit: 4, leaseMs: 60_000 }),
    ]);
    const claimed = claims.flat().map((alert) => alert.lead.id);
    expect(claimed.sort()).toEqual(stored.map((result) => result.id).sort());
    expect(claims.flat().every((alert) => alert.attempt === 1)).toBe(true);
    expect(await store.claimDueAlerts({ now, limit: 10, leaseMs: 60_000 })).toEqual([]);
    // The instance that claimed them died: at the lease's end another takes them over, on their second attempt.
    const later = await other.claimDueAlerts({ now: now + 60_000, limit: 10, leaseMs: 60_000 });
    expect(later).toHaveLength(6);
    expect(later.every((alert) => alert.attempt === 2)).toBe(true);
  });

  it('keeps the alert book: delivered, retried uncounted, dead, revived, and the backlog', async () => {
    const { store } = await kind.open(forms);
    const [a, b, c] = await Promise.all(['A', 'B', 'C'].map((name) => store.insertLead(lead(name))));
    const now = Date.now() + 1000;
    await store.claimDueAlerts({ now, limit: 3, leaseMs: 1000 });
    await store.markDelivered([a?.id ?? ''], new Date(now));
    await store.scheduleRetry(b?.id ?? '', now + 10, 'HTTP 429', { counted: false });
    await store.markDead(c?.id ?? '', 'HTTP 404');
    expect(await store.getAlert(a?.id ?? '')).toMatchObject({ status: 'delivered', lastError: null });
    expect(await store.getAlert(b?.id ?? '')).toMatchObject({ attempts: 0, nextAttemptAt: now + 10 });
    expect(await store.nextAlertDueAt()).toBe(now + 10);
    expect(await store.alertBacklog()).toMatchObject({ pending: 1, dead: 1 });
    expect(await store.retryDeadAlerts(now)).toBe(1);
    expect(await store.getAlert(c?.id ?? '')).toMatchObject({
      status: 'pending',
      attempts: 0,
      pendingSince: now,
    });
    expect(await store.isHealthy()).toBe(true);
  });

  it('purges leads past the cutoff with what hangs on them, and audits the count', async () => {
    const { store, raw } = await kind.open(forms);
    await store.insertLead(lead('Old One', { idempotencyKey: 'k-old' }));
    const note = await store.insertLead(lead('Old Two'));
    await store.inbox.addNote(note.id, 'called back', 'staff@example.com');
    expect(await store.purgeOlderThan(new Date(Date.now() + 1000).toISOString())).toBe(2);
    for (const table of ['leads', 'alerts', 'idempotency_keys', 'lead_terms', 'lead_events'])
      expect(await raw(`SELECT * FROM ${table}`)).toEqual([]);
    expect((await store.audit.page({ limit: 5 })).rows).toMatchObject([
      { action: 'purge', detail: 'count=2' },
    ]);
  });

  it('keeps one audit chain when two instances append at once', async () => {
    const { store, again } = await kind.open(forms);
    const other = await again();
    await Promise.all(
      Array.from({ length: 20 }, (_, n) =>
        (n % 2 ? store : other).audit.append({ actor: `staff${n}@example.com`, action: 'view' }),
      ),
    );
    expect(await store.audit.verify()).toEqual({ ok: true, rows: 20 });
    const { rows } = await other.audit.page({ limit: 30 });
    expect(rows.map((row) => row.seq)).toEqual(Array.from({ length: 20 }, (_, n) => 20 - n));
  });

  it('finds leads through keyed hashes, and keeps status changes and sealed notes', async () => {
    const { store, raw } = await kind.open(forms);
    const jane = await store.insertLead(lead('Jane Quist'));
    await store.insertLead(lead('Sam Lee'));
    expect((await store.inbox.list({ q: 'qui', limit: 10 })).rows.map((row) => row.id)).toEqual([jane.id]);
    expect((await store.inbox.list({ limit: 1 })).next).not.toBeNull();
    await store.inbox.setStatus(jane.id, 'contacted', 'staff@example.com');
    const note = await store.inbox.addNote(jane.id, 'Prefers a call after 5', 'staff@example.com');
    expect(await store.inbox.get(jane.id)).toMatchObject({
      status: 'contacted',
      history: [{ from: 'new', to: 'contacted', author: 'staff@example.com' }],
      notes: [{ id: note?.id, text: 'Prefers a call after 5' }],
    });
    const events = await raw('SELECT note_sealed FROM lead_events');
    expect(JSON.stringify(events)).not.toContain('Prefers');
    expect(await store.inbox.setStatus('no-such-lead', 'closed', 'staff@example.com')).toBeUndefined();
  });

  it('invites, enrols and keeps a session of a staff member, secrets kept only as hashes', async () => {
    const { store, raw } = await kind.open(forms);
    const now = Date.now();
    const { token } = await store.staff.createInvite(
      'Ana@Example.com',
      ['admissions', 'admin'],
      now + 60_000,
    );
    const passkey = {
      id: 'cred-1',
      publicKey: new Uint8Array([1, 2, 3]),
      counter: 0,
      transports: ['internal'],
    };
    const member = await store.staff.enrol(token, 'staff-1', passkey, now);
    expect(member).toMatchObject({ email: 'ana@example.com', admin: true, revokedAt: null });
    expect(await store.staff.enrol(token, 'staff-2', { ...passkey, id: 'cred-2' }, now)).toBeUndefined();
    expect(await store.staff.passkey('cred-1')).toMatchObject({ publicKey: new Uint8Array([1, 2, 3]) });
    const session = await store.staff.startSession('staff-1', now);
    expect((await store.staff.session(session))?.member.email).toBe('ana@example.com');
    expect(JSON.stringify(await raw('SELECT * FROM sessions'))).not.toContain(session);
    expect(JSON.stringify(await raw('SELECT * FROM invites'))).not.toContain(token);
    await store.staff.revoke('ana@example.com', now + 1);
    expect(await store.staff.session(session)).toBeUndefined();
  });

  it('keeps at most the bound of passkey challenges waiting, across instances; each is taken once', async () => {
    const { store, again } = await kind.open(forms);
    const other = await again();
    const now = Date.now();
    const saved = await Promise.all(
      ['a', 'b', 'c', 'd'].map((challenge, n) =>
        (n % 2 ? other : store).staff.saveChallenge(challenge, 'sign-in', null, now + 60_000, now, 3),
      ),
    );
    expect(saved.filter(Boolean)).toHaveLength(3);
    const kept = ['a', 'b', 'c', 'd'].filter((_, n) => saved[n]);
    expect(await store.staff.takeChallenge(kept[0] ?? '', 'sign-in', now)).toEqual({ staffId: null });
    expect(await other.staff.takeChallenge(kept[0] ?? '', 'sign-in', now)).toBeUndefined();
    // Expired ones make room.
    expect(await store.staff.saveChallenge('e', 'sign-in', null, now + 120_000, now + 61_000, 3)).toBe(true);
  });

  it('bounds each network’s challenges, and a full table gives way from the network holding most', async () => {
    const { store } = await kind.open(forms);
    const now = Date.now();
    const save = (challenge: string, key: string) =>
      store.staff.saveChallenge(challenge, 'sign-in', null, now + 60_000, now, 5, { key, quota: 3 });
    const flood = [];
    for (let n = 0; n < 5; n += 1) flood.push(await save(`a${n}`, 'a/24'));
    expect(flood).toEqual([true, true, true, false, false]);
    expect([await save('b0', 'b/24'), await save('b1', 'b/24')]).toEqual([true, true]);
    // Full (five): a network with none gets its challenge in place of the oldest of the network holding most.
    expect(await save('c0', 'c/64')).toBe(true);
    expect(await store.staff.takeChallenge('a0', 'sign-in', now)).toBeUndefined();
    expect(await store.staff.takeChallenge('c0', 'sign-in', now)).toEqual({ staffId: null });
    expect(await save('c1', 'c/64')).toBe(true);
    // Now a, b and c hold two each at most: no network would give way to a third one of b's.
    expect(await save('b2', 'b/24')).toBe(false);
    expect(await store.staff.takeChallenge('b1', 'sign-in', now)).toEqual({ staffId: null });
  });

  it("tells the inbox's listeners of each lead stored, never of a repeat", async () => {
    const { store } = await kind.open(forms);
    const heard: string[] = [];
    store.inbox.onLeadStored((id) => heard.push(id));
    const first = await store.insertLead(lead('Jane Quist', { idempotencyKey: 'k-1' }));
    await store.insertLead(lead('Jane Quist', { idempotencyKey: 'k-1' }));
    expect(heard).toEqual([first.id]);
  });

  it.runIf(kind.name === 'postgres')('tells every instance of a lead another one stored', async () => {
    const { store, again } = await kind.open(forms);
    const other = await again();
    const heard: string[] = [];
    other.inbox.onLeadStored((id) => heard.push(id));
    const { id } = await store.insertLead(lead());
    await expect.poll(() => heard, { timeout: 5000 }).toEqual([id]);
  });
});
