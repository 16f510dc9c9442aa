// The page a lead was sent from and its status history are sealed like its fields, on both stores
// (tests/helpers/store-kinds.ts): stored sealed, sealed at start where an older version left them in clear, sealed
// again by rotate-key, and read back unchanged by every reader. The SQLite file's own bytes: sqlite/lead-file-bytes.test.ts.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';
import { keyId } from '../shared/cipher.ts';
import type { NewLead } from '../contract/lead-store.ts';

const forms = loadForms();
const SOURCE = '/treatment/fentanyl-addiction';

const lead: NewLead = {
  formId: 'consultation',
  source: SOURCE,
  fields: { firstName: 'Odalys', lastName: 'Brennagh', phone: '555 010 7788', email: 'o@example.org' },
};

describe.each(storeKinds())('the $name store, on where a lead came from and what became of it', (kind) => {
  // Every column but the lead's current status, which the list filters on (in clear, as before).
  const everything = async (raw: (sql: string) => Promise<Record<string, unknown>[]>) =>
    JSON.stringify([
      ...(await raw('SELECT id, form_id, created_at, source, data, sealed FROM leads')),
      ...(await raw('SELECT * FROM lead_events')),
    ]);

  it('stores the source page and each status change sealed, and reads them back as they were', async () => {
    const { store, raw } = await kind.open(forms);
    const { id } = await store.insertLead(lead);
    await store.inbox.setStatus(id, 'contacted', 'ann@example.org');
    await store.inbox.setStatus(id, 'admitted', 'ann@example.org');
    const stored = await everything(raw);
    expect(stored).not.toContain('fentanyl');
    expect(stored).not.toContain('admitted');
    expect(stored).not.toContain('contacted');
    const events = await raw('SELECT kind, from_status, to_status FROM lead_events ORDER BY at, id');
    expect(events).toEqual([
      { kind: 'status', from_status: null, to_status: null },
      { kind: 'status', from_status: null, to_status: null },
    ]);
    const opened = await store.inbox.get(id);
    expect(opened?.source).toBe(SOURCE);
    expect(opened?.history.map(({ from, to, author }) => [from, to, author])).toEqual([
      ['new', 'contacted', 'ann@example.org'],
      ['contacted', 'admitted', 'ann@example.org'],
    ]);
    expect((await store.getLead(id))?.source).toBe(SOURCE);
    expect((await store.listLeads()).map((row) => row.source)).toEqual([SOURCE]);
  });

  it('seals at start the source pages and status changes an older version stored in clear', async () => {
    const { store, raw, sql } = await kind.open(forms);
    const { id } = await store.insertLead(lead);
    // As an older version wrote them.
    await sql('UPDATE leads SET source = $1 WHERE id = $2', [SOURCE, id]);
    await sql(
      `INSERT INTO lead_events (id, lead_id, at, author, kind, from_status, to_status, note_sealed)
       VALUES ('old-event', $1, '2026-01-02T00:00:00.000Z', 'ann@example.org', 'status', 'new', 'admitted', NULL)`,
      [id],
    );
    expect(await everything(raw)).toContain('fentanyl');
    // Read as they are until then.
    expect((await store.inbox.get(id))?.source).toBe(SOURCE);
    expect(await store.sealLegacyLeads()).toBe(2);
    expect(await store.sealLegacyLeads()).toBe(0);
    const stored = await everything(raw);
    expect(stored).not.toContain('fentanyl');
    expect(stored).not.toContain('admitted');
    const opened = await store.inbox.get(id);
    expect(opened?.source).toBe(SOURCE);
    expect(opened?.history).toEqual([
      { author: 'ann@example.org', at: '2026-01-02T00:00:00.000Z', from: 'new', to: 'admitted' },
    ]);
  });

  it('seals them again under the new key in a rotation', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const { store, again, raw, rotate } = await kind.open(forms, { key: oldKey });
    const { id } = await store.insertLead(lead);
    await store.inbox.setStatus(id, 'admitted', 'ann@example.org');
    await store.close();
    const result = await rotate({ key: [newKey, oldKey], forms, actor: 'cli:tester', settleMs: 10 });
    expect(result.resealed).toBe(2);
    expect(await everything(raw)).not.toContain(`v2.${keyId(oldKey)}.`);
    const reader = await again({ key: newKey });
    const opened = await reader.inbox.get(id);
    expect(opened?.source).toBe(SOURCE);
    expect(opened?.history.map(({ from, to }) => [from, to])).toEqual([['new', 'admitted']]);
  });
});
