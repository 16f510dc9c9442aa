import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { loadForms } from '../content.ts';
import { InboxQueryError } from './inbox-store.ts';
import { openLeadStore, type LeadStore } from './lead-store.ts';

const forms = loadForms();
const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dbFile = () => {
  const dir = mkdtempSync(join(tmpdir(), 'inbox-'));
  dirs.push(dir);
  return join(dir, 'leads.db');
};

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
async function storeWith(file: string, leads: ReturnType<typeof consultation | typeof insurance>[]) {
  const store = openLeadStore(file, { forms, writerThread: false });
  const ids: string[] = [];
  for (const lead of leads) ids.push((await store.insertLead(lead)).id);
  const db = new Database(file);
  ids.forEach((id, n) =>
    db
      .prepare('UPDATE leads SET created_at = ? WHERE id = ?')
      .run(new Date(Date.UTC(2026, 0, 1, 0, n)).toISOString(), id),
  );
  db.close();
  return { store, ids };
}

const idsOf = async (store: LeadStore, query: Parameters<LeadStore['inbox']['list']>[0]) =>
  (await store.inbox.list(query)).rows.map((row) => row.id);

describe('inbox store', () => {
  it('lists newest first, a page at a time, with every value opened', async () => {
    const { store, ids } = await storeWith(dbFile(), [
      consultation('Sam', 'Lee', '555-010-0199', 'sam@example.com'),
      insurance('Jane Doe', '(555) 010-4477'),
      consultation('Ana', 'Ruiz', '555 010 0123', 'ana@example.com'),
    ]);
    const first = await store.inbox.list({ limit: 2 });
    expect(first.rows.map((row) => row.id)).toEqual([ids[2], ids[1]]);
    expect(first.rows[1]).toEqual({
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
    await store.close();
  });

  it('pages through leads received in the same millisecond without losing or repeating one', async () => {
    const file = dbFile();
    const store = openLeadStore(file, { forms, writerThread: false });
    for (let n = 0; n < 7; n += 1) await store.insertLead(insurance(`Person ${n}`, '5550100000'));
    const db = new Database(file);
    db.prepare("UPDATE leads SET created_at = '2026-01-01T00:00:00.000Z'").run();
    db.close();
    const seen: string[] = [];
    let before: string | undefined;
    do {
      const page = await store.inbox.list({ limit: 3, before });
      seen.push(...page.rows.map((row) => row.id));
      before = page.next ?? undefined;
    } while (before);
    expect(seen).toHaveLength(7);
    expect(seen).toEqual([...seen].sort().reverse());
    await store.close();
  });

  it('filters by status, form and received time', async () => {
    const { store, ids } = await storeWith(dbFile(), [
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
    await store.close();
  });

  it('finds leads by name (whole words or prefixes, any accents or case), phone or e-mail, through hashes only', async () => {
    const file = dbFile();
    const { store, ids } = await storeWith(file, [
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
    await store.close();
    const db = new Database(file, { readonly: true });
    const terms = db.prepare('SELECT term FROM lead_terms').pluck().all() as string[];
    expect(terms.length).toBeGreaterThan(10);
    for (const clear of ['jose', 'alv', '5550100199', '4477', 'example.com'])
      expect(
        terms.some((term) => term.includes(clear)),
        clear,
      ).toBe(false);
    db.close();
  });

  it('finds leads by a term a thousand others share as exactly as by a rare one, page by page', async () => {
    const store = openLeadStore(':memory:', { forms });
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
    await store.close();
  });

  it('changes status and keeps notes sealed, each with who and when, oldest first', async () => {
    const file = dbFile();
    const { store, ids } = await storeWith(file, [insurance('Jane Doe', '(555) 010-4477')]);
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
    await store.close();
    const db = new Database(file, { readonly: true });
    const sealed = db
      .prepare("SELECT note_sealed FROM lead_events WHERE kind = 'note'")
      .pluck()
      .get() as string;
    expect(sealed).toMatch(/^v\d\./);
    expect(sealed).not.toContain('mother');
    db.close();
  });

  it('tells its listeners of each lead once it is stored, never of a repeat', async () => {
    const store = openLeadStore(dbFile(), { forms });
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
    await store.close();
  });

  it('answers the list from its indexes', async () => {
    const file = dbFile();
    (await storeWith(file, [])).store.close();
    const db = new Database(file, { readonly: true });
    const plan = (sql: string) =>
      (db.prepare(`EXPLAIN QUERY PLAN ${sql}`).all() as { detail: string }[])
        .map((row) => row.detail)
        .join('; ');
    expect(plan('SELECT * FROM leads ORDER BY created_at DESC, id DESC LIMIT 50')).toMatch(/leads_newest/);
    expect(
      plan("SELECT * FROM leads WHERE status = 'new' ORDER BY created_at DESC, id DESC LIMIT 50"),
    ).toMatch(/leads_by_status/);
    expect(
      plan("SELECT * FROM leads WHERE form_id = 'f' ORDER BY created_at DESC, id DESC LIMIT 50"),
    ).toMatch(/leads_by_form/);
    db.close();
  });
});
