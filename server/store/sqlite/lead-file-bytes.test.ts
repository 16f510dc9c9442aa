// What an attacker holding the database file (and its WAL) reads there: no value a visitor sent, in any form.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { loadForms } from '../../content.ts';
import { openLeadDatabase } from './schema.ts';
import { openLeadStore } from './lead-store.ts';

const forms = loadForms();
const tempDir = useTempDir('lead-bytes-');
const dbFile = () => join(tempDir(), 'leads.db');

const people = Array.from({ length: 40 }, (_, n) => ({
  first: `Zebulon${n}x`,
  last: `Quixotically${n}`,
  phone: `(555) 867-${String(5300 + n)}`,
  email: `zeb.quix${n}@example.org`,
  memberId: `MBR-7744${String(6600 + n)}`,
  source: `/treatment/quixotic-recovery-${n}`,
}));

/** Every form in which a value could sit in the file: as sent, lower case, and a phone's digits alone. */
const needles = people.flatMap((p) => [
  p.first,
  p.first.toLowerCase(),
  p.last,
  p.last.toLowerCase(),
  p.phone,
  p.phone.replace(/\D/g, ''),
  p.email,
  p.memberId,
  p.source,
]);

function bytesOf(file: string): Buffer {
  return Buffer.concat(
    ['', '-wal']
      .map((suffix) => `${file}${suffix}`)
      .filter(existsSync)
      .map((f) => readFileSync(f)),
  );
}

const found = (bytes: Buffer) => needles.filter((needle) => bytes.includes(needle));

describe('the database file', () => {
  it('holds no name, phone, e-mail, member ID or source page of the leads stored in it', async () => {
    const file = dbFile();
    const store = openLeadStore(file, { forms });
    for (const [n, p] of people.entries())
      await store.insertLead(
        n % 2
          ? {
              formId: 'consultation',
              source: p.source,
              fields: { firstName: p.first, lastName: p.last, phone: p.phone, email: p.email },
            }
          : {
              formId: 'insurance-verification',
              source: p.source,
              fields: { fullName: `${p.first} ${p.last}`, phone: p.phone, memberId: p.memberId },
            },
      );
    const lead = (await store.inbox.list({ q: people[3]!.email, limit: 5 })).rows[0];
    expect(lead?.fields.email).toBe(people[3]!.email);
    expect((await store.inbox.get(lead!.id))?.source).toBe(people[3]!.source);
    expect(bytesOf(file).length).toBeGreaterThan(0);
    expect(found(bytesOf(file))).toEqual([]);
    await store.close();
    expect(found(bytesOf(file))).toEqual([]);
  });

  it('keeps none of the values older versions stored in clear once they are sealed at start', async () => {
    const file = dbFile();
    const old = openLeadDatabase(file, 4);
    const insert = old.prepare(
      `INSERT INTO leads (id, form_id, created_at, source, data, sealed) VALUES (?, 'insurance-verification', ?, '/', ?, '{}')`,
    );
    const alert = old.prepare(
      "INSERT INTO alerts (lead_id, status, attempts, next_attempt_at, pending_since) VALUES (?, 'delivered', 1, 0, 0)",
    );
    for (const [n, p] of people.entries()) {
      const id = `old-${String(n).padStart(3, '0')}`;
      insert.run(
        id,
        new Date(Date.UTC(2025, 0, 1, 0, n)).toISOString(),
        JSON.stringify({
          fullName: `${p.first} ${p.last}`,
          phone: p.phone,
          email: p.email,
          memberId: p.memberId,
        }),
      );
      alert.run(id);
    }
    old.close();
    expect(found(bytesOf(file)).length).toBeGreaterThan(0);

    const store = openLeadStore(file, { forms });
    expect(await store.sealLegacyLeads()).toBe(people.length);
    // At once, while the server runs on: not only once a last connection's checkpoint at close rewrote the file.
    expect(found(bytesOf(file))).toEqual([]);
    expect((await store.inbox.list({ q: people[7]!.phone, limit: 5 })).rows.map((row) => row.id)).toEqual([
      'old-007',
    ]);
    await store.close();
    expect(found(bytesOf(file))).toEqual([]);
    const reopened = openLeadStore(file, { forms });
    expect((await reopened.getLead('old-012'))?.data.memberId).toBe(people[12]!.memberId);
    await reopened.close();
  });
});
