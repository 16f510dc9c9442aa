// rotate-key's contract, each test run against SQLite and a real PostgreSQL (tests/helpers/store-kinds.ts): every value
// sealed again under the new key while a server keeps storing leads and follows the new key, nothing lost, nothing
// left under the old key. The SQLite file's own bytes are checked in sqlite/rotation.test.ts.
import { randomBytes } from 'node:crypto';
import { statSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { storeKinds } from '../../../tests/helpers/store-kinds.ts';
import { loadForms } from '../../content.ts';
import { keyId } from '../shared/cipher.ts';
import { readKeyFile } from '../shared/key-file.ts';
import type { NewLead } from '../contract/lead-store.ts';

const forms = loadForms();

const lead = (n: number): NewLead => ({
  formId: 'consultation',
  source: '/',
  fields: {
    firstName: `Rotated${n}`,
    lastName: 'Keyholder',
    phone: `555010${String(1000 + n)}`,
    email: `r${n}@example.org`,
    message: `Message ${n}`,
  },
});

describe.each(storeKinds())('rotate-key on the $name store', (kind) => {
  /** Every sealed value the database holds, leads' and notes', as one text. */
  const storedValues = async (raw: (sql: string) => Promise<Record<string, unknown>[]>) =>
    JSON.stringify([
      ...(await raw('SELECT data, sealed FROM leads')),
      ...(await raw('SELECT note_sealed FROM lead_events')),
    ]);

  it('reseals every value under a new key while a server keeps storing leads, then drops the old key', async () => {
    const { store: server, again, raw, rotate, keyFile } = await kind.open(forms, { keyFile: true });
    const [oldKey] = readKeyFile(keyFile!).keys;
    const oldId = keyId(oldKey!);
    const before = await Promise.all(Array.from({ length: 40 }, (_, n) => server.insertLead(lead(n))));
    await server.inbox.addNote(before[3]!.id, 'Spoke to her brother', 'ann@example.org');

    // The server goes on taking leads through the rotation, one every few milliseconds, at most 2,000.
    let rotating = true;
    const during: Promise<{ id: string }>[] = [];
    const feeding = (async () => {
      for (let n = 100; rotating && n < 2100; n += 1) {
        during.push(server.insertLead(lead(n)));
        await new Promise((resolve) => setTimeout(resolve, 5));
      }
    })();
    const result = await rotate({ forms, actor: 'cli:tester', settleMs: 1500, batch: 7 }).finally(() => {
      rotating = false;
    });
    await feeding;
    const stored = await Promise.all(during);
    expect(stored.length).toBeGreaterThan(10);
    // The server follows the new key: what it stores now is sealed with it.
    const after = await server.insertLead(lead(5000));
    await server.close();

    expect(result).toMatchObject({ retired: [oldId], keyFile });
    const keys = readKeyFile(keyFile!).keys;
    expect(keys.map(keyId)).toEqual([result.keyId]);
    expect(statSync(keyFile!).mode & 0o777).toBe(0o600);

    const values = await storedValues(raw);
    expect(values).not.toContain(`v2.${oldId}.`);
    expect(values).not.toContain('"v1.');
    const [sealedAfter] = await raw(`SELECT sealed FROM leads WHERE id = '${after.id}'`);
    expect(sealedAfter?.sealed).toContain(`"v2.${result.keyId}.`);

    // The new key alone opens everything: every lead, sent before, during and after, and the note.
    const reader = await again({ key: keys });
    const all = await reader.listLeads();
    expect(all).toHaveLength(before.length + stored.length + 1);
    const ids = new Set(all.map((row) => row.id));
    for (const { id } of [...before, ...stored, after]) expect(ids.has(id)).toBe(true);
    for (const row of all) expect(row.data.lastName).toBe('Keyholder');
    expect((await reader.inbox.get(before[3]!.id))?.notes[0]?.text).toBe('Spoke to her brother');
    expect((await reader.inbox.list({ q: '5550101007', limit: 5 })).rows.map((row) => row.id)).toEqual([
      before[7]!.id,
    ]);
    expect((await reader.inbox.list({ q: '5550106000', limit: 5 })).rows.map((row) => row.id)).toEqual([
      after.id,
    ]);
    const [audited] = (await reader.audit.page({ limit: 1 })).rows;
    expect(audited).toMatchObject({ actor: 'cli:tester', action: 'rotate-key' });
    expect(audited?.detail).toContain(`key=${result.keyId}`);
  }, 30_000);

  it('with LEADS_ENCRYPTION_KEY, reseals everything under its first key', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const { store, again, raw, rotate } = await kind.open(forms, { key: oldKey });
    const { id } = await store.insertLead(lead(1));
    await store.close();
    const result = await rotate({ key: [newKey, oldKey], forms, actor: 'cli:tester', settleMs: 10 });
    expect(result).toEqual({
      keyId: keyId(newKey),
      retired: [keyId(oldKey)],
      resealed: 1,
      keyFile: undefined,
    });
    const reader = await again({ key: newKey });
    expect((await reader.getLead(id))?.data.firstName).toBe('Rotated1');
    expect((await reader.inbox.list({ q: 'rotated1', limit: 5 })).rows).toHaveLength(1);
    expect(await storedValues(raw)).not.toContain(`v2.${keyId(oldKey)}.`);
  });

  it('seals with the first key of its ring from its start, the new key put first before a rotation', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const { store: before, again, raw } = await kind.open(undefined, { key: oldKey });
    await before.insertLead(lead(1));
    await before.close();
    const after = await again({ key: [newKey, oldKey] });
    const { id } = await after.insertLead(lead(2));
    const [row] = await raw(`SELECT sealed FROM leads WHERE id = '${id}'`);
    expect(row?.sealed).toContain(`"v2.${keyId(newKey)}.`);
    expect(row?.sealed).not.toContain(`"v2.${keyId(oldKey)}.`);
  });

  it('still knows a repeat sent across a rotation: fingerprints compare under every key of the ring', async () => {
    const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
    const { store: before, again } = await kind.open(undefined, { key: oldKey });
    const first = await before.insertLead({
      ...lead(1),
      idempotencyKey: 'k-1',
      fingerprint: before.fingerprints('a'),
    });
    await before.close();
    const after = await again({ key: [newKey, oldKey] });
    expect(after.fingerprints('a')).toHaveLength(2);
    expect(
      await after.insertLead({ ...lead(1), idempotencyKey: 'k-1', fingerprint: after.fingerprints('a') }),
    ).toEqual({
      id: first.id,
      replayed: true,
    });
    expect(
      await after.insertLead({ ...lead(1), idempotencyKey: 'k-1', fingerprint: after.fingerprints('b') }),
    ).toMatchObject({ conflict: true });
  });

  // Its own time limit: the rotation's pass over every lead is slow on a loaded machine, and the feeding must outlast it.
  it(
    'stops with a clear message when a server keeps sealing with the old key (one started without the new one)',
    { timeout: 120_000 },
    async () => {
      const [oldKey, newKey] = [randomBytes(32), randomBytes(32)];
      const { store: server, rotate } = await kind.open(undefined, { key: oldKey });
      await server.insertLead(lead(1));
      let rotating = true;
      // One insert after another, each awaited, so every settle window of the rotation sees a lead sealed with the old
      // key committed, however loaded the machine (with pauses between inserts and short windows, a busy machine let a
      // window pass without one, and the rotation rightly finished). Bounded in time all the same.
      const feeding = (async () => {
        const until = Date.now() + 100_000;
        for (let n = 2; rotating && Date.now() < until; n += 1) await server.insertLead(lead(n));
      })();
      try {
        await expect(rotate({ key: [newKey, oldKey], actor: 'cli:tester', settleMs: 250 })).rejects.toThrow(
          /still being sealed with another key .* Restart it with the new key first/,
        );
      } finally {
        rotating = false;
        await feeding;
      }
    },
  );
});
