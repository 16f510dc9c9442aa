// The contract for leads that arrive together (both stores write the leads of one moment as one batch): each is
// answered as if it had come alone, and the database holds what the answers say. Runs against SQLite and PostgreSQL.
import { describe, expect, it } from 'vitest';
import { namedLead as lead, storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';
import { DeadlineError } from '../shared/group-commit.ts';

const forms = loadForms();

describe.each(storeKinds())('the $name lead store, leads arriving together', (kind) => {
  it('answers each lead of a batch, a repeated key as the first one: one row per key', async () => {
    const { store, raw } = await kind.open(forms);
    const before = await store.insertLead(lead('Earlier', { idempotencyKey: 'k-old', fingerprint: 'f-old' }));
    const heard: string[] = [];
    store.inbox.onLeadStored((id) => heard.push(id));
    // Sent in one turn of the event loop, so they share one commit.
    const [first, plain, repeat, conflict, other, old] = await Promise.all([
      store.insertLead(lead('Jane Quist', { idempotencyKey: 'k-1', fingerprint: 'f-1' })),
      store.insertLead(lead('No Key')),
      store.insertLead(lead('Jane Quist', { idempotencyKey: 'k-1', fingerprint: ['f-9', 'f-1'] })),
      store.insertLead(lead('Someone Else', { idempotencyKey: 'k-1', fingerprint: 'f-2' })),
      store.insertLead(lead('Sam Lee', { idempotencyKey: 'k-2', fingerprint: 'f-3' })),
      store.insertLead(lead('Earlier', { idempotencyKey: 'k-old', fingerprint: 'f-old' })),
    ]);
    expect(first?.replayed).toBe(false);
    expect(plain?.replayed).toBe(false);
    expect(other?.replayed).toBe(false);
    expect(repeat).toEqual({ id: first?.id, replayed: true });
    expect(conflict).toEqual({ id: first?.id, replayed: true, conflict: true });
    expect(old).toEqual({ id: before.id, replayed: true });
    const stored = [before.id, first?.id, plain?.id, other?.id].sort();
    expect((await raw('SELECT id FROM leads')).map((row) => row.id).sort()).toEqual(stored);
    expect((await raw('SELECT lead_id FROM alerts')).map((row) => row.lead_id).sort()).toEqual(stored);
    const keys = await raw('SELECT key, lead_id, fingerprint FROM idempotency_keys ORDER BY key');
    expect(keys).toEqual([
      { key: 'k-1', lead_id: first?.id, fingerprint: 'f-1' },
      { key: 'k-2', lead_id: other?.id, fingerprint: 'f-3' },
      { key: 'k-old', lead_id: before.id, fingerprint: 'f-old' },
    ]);
    const termsOf = new Set((await raw('SELECT lead_id FROM lead_terms')).map((row) => row.lead_id));
    expect([...termsOf].sort()).toEqual(stored);
    expect(heard.sort()).toEqual([first?.id, plain?.id, other?.id].sort());
    expect((await store.getLead(first?.id ?? ''))?.data.fullName).toBe('Jane Quist');
  });

  it('stores one lead per key when two instances send batches of the same keys in opposite orders', async () => {
    const { store, again, raw } = await kind.open(forms);
    const other = await again();
    const keys = Array.from({ length: 8 }, (_, n) => `k-${n}`);
    const send = (each: typeof store, order: string[]) =>
      Promise.all(order.map((key) => each.insertLead(lead(`Person ${key}`, { idempotencyKey: key }))));
    const [ours, theirs] = await Promise.all([send(store, keys), send(other, [...keys].reverse())]);
    expect(ours.map((result) => result.id)).toEqual(theirs.reverse().map((result) => result.id));
    expect([...ours, ...theirs].filter((result) => !result.replayed)).toHaveLength(8);
    expect(await raw('SELECT id FROM leads')).toHaveLength(8);
    expect(await raw('SELECT key FROM idempotency_keys')).toHaveLength(8);
  });

  it('writes nothing of a lead whose visitor stopped waiting before its batch began', async () => {
    const { store, raw } = await kind.open(forms);
    // The store keeps a margin for the commit: a deadline closer than that is already too late. (By its message: the
    // SQLite writer's errors cross from its thread as plain errors.)
    await expect(
      store.insertLead(lead('Too Late', { idempotencyKey: 'k-late' }), { deadline: Date.now() + 100 }),
    ).rejects.toThrow(new DeadlineError().message);
    for (const table of ['leads', 'alerts', 'idempotency_keys', 'lead_terms'])
      expect(await raw(`SELECT * FROM ${table}`)).toEqual([]);
    const { replayed } = await store.insertLead(lead('Too Late', { idempotencyKey: 'k-late' }));
    expect(replayed).toBe(false);
  });

  it.runIf(kind.name === 'postgres')(
    'tells every other instance of each lead of a batch once, never of a repeat',
    async () => {
      const { store, again } = await kind.open(forms);
      const other = await again();
      const heard: string[] = [];
      other.inbox.onLeadStored((id) => heard.push(id));
      const results = await Promise.all(
        ['a', 'b', 'a', 'c'].map((key) => store.insertLead(lead(`Person ${key}`, { idempotencyKey: key }))),
      );
      const stored = results.filter((result) => !result.replayed).map((result) => result.id);
      expect(stored).toHaveLength(3);
      await expect.poll(() => [...heard].sort(), { timeout: 5000 }).toEqual([...stored].sort());
      // A repeat, then a new lead: notices arrive in commit order, so one for the repeat would come before the last.
      await store.insertLead(lead('Person a', { idempotencyKey: 'a' }));
      const last = await store.insertLead(lead('Person d', { idempotencyKey: 'd' }));
      await expect.poll(() => heard.at(-1), { timeout: 5000 }).toBe(last.id);
      expect(heard).toHaveLength(4);
    },
  );
});
