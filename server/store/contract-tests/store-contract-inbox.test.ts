// The inbox's contract: listing, paging, filters, search through keyed hashes, status changes, sealed notes and
// listeners, each test run against SQLite and a real PostgreSQL (tests/helpers/store-kinds.ts). The SQLite query plans
// are checked in sqlite/inbox-store.test.ts.
import { describe, expect, it } from 'vitest';
import { storeKinds, type StoreKind } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';
import { InboxQueryError } from '../shared/inbox-query.ts';
import type { LeadStore } from '../contract/lead-store.ts';

const forms = loadForms();

const consultation = (firstName: string, lastName: string, phone: string, email: string) => ({
  formId: 'consultation',
  source: '/',
  fields: { firstName, lastName, phone, email, urgency: 'urgent', message: 'Please call' },
});
const insurance = (fullName: string, phone: string) => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: { fullName, phone, dateOfBirth: '1980-02-03', memberId: 'MEM-1' },
});

/** Stores the leads, one after another, with created_at one minute apart from 2026-01-01T00:00Z in that order. */
async function storeWith(kind: StoreKind, leads: ReturnType<typeof consultation | typeof insurance>[]) {
  const opened = await kind.open(forms);
  const ids: string[] = [];
  for (const lead of leads) ids.push((await opened.store.insertLead(lead)).id);
  for (const [n, id] of ids.entries())
    await opened.sql('UPDATE leads SET created_at = $1 WHERE id = $2', [
      new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(),
      id,
    ]);
  return { ...opened, ids };
}

const idsOf = async (store: LeadStore, query: Parameters<LeadStore['inbox']['list']>[0]) =>
  (await store.inbox.list(query)).rows.map((row) => row.id);

describe.each(storeKinds())('the $name inbox store', (kind) => {
  it('lists newest first, a page at a time, with every value opened', async () => {
    const { store, ids } = await storeWith(kind, [
      consultation('Sam', 'Lee', '555-010-0199', 'sam@example.com'),
      insurance('Jane Doe', '(555) 010-4477'),
      consultation('Ana', 'Ruiz', '555 010 0123', 'ana@example.com'),
    ]);
    const first = await store.inbox.list({ limit: 2 });
    expect(first.rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect(first.rows[1]).toMatchObject({
      id: ids[1],
      formId: 'insurance-verification',
      createdAt: '2026-01-01T00:01:00.000Z',
      status: 'new',
      fields: insurance('Jane Doe', '(555) 010-4477').fields,
    });
    const second = await store.inbox.list({ limit: 2, before: first.next ?? '' });
    expect(second).toMatchObject({ rows: [{ id: ids[0] }], next: null });
    const all: string[] = [];
    for await (const row of store.inbox.all({})) all.push(row.id);
    expect(all).toEqual([ids[2], ids[1], ids[0]]);
    await expect(store.inbox.list({ limit: 2, before: 'nonsense' })).rejects.toThrow(InboxQueryError);
    await expect(store.inbox.list({ limit: 2, from: 'yesterday' })).rejects.toThrow(InboxQueryError);
  });

  it('pages through leads received in the same millisecond without losing or repeating one', async () => {
    const { store, sql } = await kind.open(forms);
    for (let n = 0; n < 7; n += 1) await store.insertLead(insurance(`Person ${n}`, '5550100000'));
    await sql("UPDATE leads SET created_at = '2026-01-01T00:00:00.000Z'");
    const seen: string[] = [];
    let before: string | undefined;
    do {
      const page = await store.inbox.list({ limit: 3, before });
      seen.push(...page.rows.map((row) => row.id));
      before = page.next ?? undefined;
    } while (before);
    expect(seen).toHaveLength(7);
    expect(seen).toEqual([...seen].sort().reverse());
  });

  it('filters by status, form and received time', async () => {
    const { store, ids } = await storeWith(kind, [
      consultation('Sam', 'Lee', '555-010-0199', 'sam@example.com'),
      insurance('Jane Doe', '(555) 010-4477'),
      consultation('Ana', 'Ruiz', '555 010 0123', 'ana@example.com'),
    ]);
    await store.inbox.setStatus(ids[0]!, 'contacted', 'ann@example.org');
    expect(await idsOf(store, { limit: 10, status: 'contacted' })).toEqual([ids[0]]);
    expect(await idsOf(store, { limit: 10, status: 'new' })).toEqual([ids[2], ids[1]]);
    expect(await idsOf(store, { limit: 10, formId: 'consultation' })).toEqual([ids[2], ids[0]]);
    expect(
      await idsOf(store, { limit: 10, from: '2026-01-01T00:01:00Z', to: '2026-01-01T00:02:00Z' }),
    ).toEqual([ids[1]]);
    expect(await idsOf(store, { limit: 10, formId: 'consultation', status: 'new' })).toEqual([ids[2]]);
  });

  it('finds leads by name (whole words or prefixes, any accents or case), phone or e-mail, through hashes only', async () => {
    const { store, ids, raw } = await storeWith(kind, [
      consultation('José', 'Álvarez', '+1 (555) 010-0199', 'Jose.Alvarez@Example.com'),
      insurance('Jane Alvarado', '(555) 010-4477'),
      consultation('Ana', 'Ruiz', '555 010 0123', 'ana@example.com'),
    ]);
    const search = (q: string) => idsOf(store, { limit: 10, q });
    expect(await search('alvarez')).toEqual([ids[0]]);
    expect(await search('ALV')).toEqual([ids[1], ids[0]]);
    expect(await search('jose alv')).toEqual([ids[0]]);
    expect(await search('José Álvarez')).toEqual([ids[0]]);
    expect(await search('jane alvarez')).toEqual([]);
    expect(await search('5550100199')).toEqual([ids[0]]);
    expect(await search('(555) 010-4477')).toEqual([ids[1]]);
    expect(await search('4477')).toEqual([ids[1]]);
    expect(await search('0123')).toEqual([ids[2]]);
    expect(await search('010-44')).toEqual([]);
    expect(await search('jose.alvarez@example.com')).toEqual([ids[0]]);
    expect(await search('ana@example')).toEqual([]);
    expect(await search('unknown')).toEqual([]);
    expect(await idsOf(store, { limit: 10, q: 'alv', formId: 'insurance-verification' })).toEqual([ids[1]]);
    const terms = (await raw('SELECT term FROM lead_terms')).map((row) => String(row.term));
    expect(terms.length).toBeGreaterThan(10);
    for (const clear of ['jose', 'alv', '5550100199', '4477', 'example.com'])
      expect(
        terms.some((term) => term.includes(clear)),
        clear,
      ).toBe(false);
  });

  it('finds leads by a term a thousand others share as exactly as by a rare one, page by page', async () => {
    const { store } = await kind.open(forms);
    for (let n = 0; n < 1010; n += 1)
      await store.insertLead(insurance(n % 2 ? `Common Smith${n}` : `Common Jones${n}`, `555010${1000 + n}`));
    for (const name of ['Rare Person', 'Another Person'])
      await store.insertLead(insurance(name, '5550109999'));
    const common: string[] = [];
    for await (const row of store.inbox.all({ q: 'common' })) common.push(row.fields.fullName ?? '');
    expect(common).toHaveLength(1010);
    expect(common.every((name) => name.startsWith('Common '))).toBe(true);
    const seen: string[] = [];
    let before: string | undefined;
    do {
      const page = await store.inbox.list({ limit: 200, q: 'common smi', before });
      seen.push(...page.rows.map((row) => row.fields.fullName ?? ''));
      before = page.next ?? undefined;
    } while (before);
    expect(seen).toHaveLength(505);
    expect(seen.every((name) => name.startsWith('Common Smith'))).toBe(true);
    expect(new Set(seen).size).toBe(505);
    const jones10 = (await store.inbox.list({ limit: 200, q: 'common jones10' })).rows.map(
      (row) => row.fields.fullName,
    );
    expect(jones10.sort()).toEqual(
      [10, 100, 1000, 1002, 1004, 1006, 1008, 102, 104, 106, 108].map((n) => `Common Jones${n}`).sort(),
    );
  });

  it('changes status and keeps notes sealed, each with who and when, oldest first', async () => {
    const { store, ids, raw } = await storeWith(kind, [insurance('Jane Doe', '(555) 010-4477')]);
    const id = ids[0]!;
    const changed = await store.inbox.setStatus(id, 'contacted', 'ann@example.org');
    expect(changed).toMatchObject({ id, status: 'contacted', source: '/insurance' });
    expect(changed?.history).toEqual([
      { author: 'ann@example.org', at: expect.any(String), from: 'new', to: 'contacted' },
    ]);
    expect((await store.inbox.setStatus(id, 'contacted', 'bob@example.org'))?.history).toHaveLength(1);
    await store.inbox.setStatus(id, 'admitted', 'bob@example.org');
    const note = await store.inbox.addNote(id, 'Called back, mother answered', 'bob@example.org');
    expect(note).toEqual({
      id: expect.any(String),
      author: 'bob@example.org',
      createdAt: expect.any(String),
      text: 'Called back, mother answered',
    });
    const lead = await store.inbox.get(id);
    expect(lead?.status).toBe('admitted');
    expect(lead?.history.map((change) => `${change.author} ${change.from}>${change.to}`)).toEqual([
      'ann@example.org new>contacted',
      'bob@example.org contacted>admitted',
    ]);
    expect(lead?.notes).toEqual([note]);
    expect(lead?.fields.fullName).toBe('Jane Doe');
    expect(await store.inbox.get('no-such-lead')).toBeUndefined();
    expect(await store.inbox.setStatus('no-such-lead', 'closed', 'ann@example.org')).toBeUndefined();
    expect(await store.inbox.addNote('no-such-lead', 'x', 'ann@example.org')).toBeUndefined();
    const [sealed] = await raw("SELECT note_sealed FROM lead_events WHERE kind = 'note'");
    expect(sealed?.note_sealed).toMatch(/^v\d\./);
    expect(sealed?.note_sealed).not.toContain('mother');
  });

  it('tells its listeners of each lead once it is stored, never of a repeat', async () => {
    const { store } = await kind.open(forms);
    // Asked while the listener runs: the lead must be there already.
    const heard: Promise<string>[] = [];
    const stop = store.inbox.onLeadStored((id) =>
      heard.push(store.getLead(id).then((lead) => `${id}:${lead ? 'stored' : 'missing'}`)),
    );
    const first = await store.insertLead({ ...insurance('Jane Doe', '5550104477'), idempotencyKey: 'k-1' });
    await store.insertLead({ ...insurance('Jane Doe', '5550104477'), idempotencyKey: 'k-1' });
    stop();
    await store.insertLead(insurance('Sam Lee', '5550100199'));
    expect(await Promise.all(heard)).toEqual([`${first.id}:stored`]);
    store.inbox.onLeadStored(() => {
      throw new Error('a listener that fails');
    });
    await expect(store.insertLead(insurance('Ana Ruiz', '5550100123'))).resolves.toMatchObject({
      replayed: false,
    });
  });
});
