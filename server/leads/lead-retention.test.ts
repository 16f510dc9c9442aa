import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, describe, expect, it } from 'vitest';
import { retentionCutoff } from './lead-retention.ts';
import { openLeadStore } from './lead-store.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const lead = (fullName: string, idempotencyKey: string) => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: { fullName, phone: '(555) 010-4477', memberId: 'XZH-1' },
  idempotencyKey,
});

describe('retention', () => {
  it('purges the leads older than the cutoff with their alerts, keys, terms, status changes and notes, and only those', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'retention-'));
    dirs.push(dir);
    const file = join(dir, 'leads.db');
    const store = openLeadStore(file);
    const old = await Promise.all(
      [lead('Old One', 'k1'), lead('Old Two', 'k2')].map((l) => store.insertLead(l)),
    );
    const kept = await store.insertLead(lead('Kept Three', 'k3'));
    for (const { id } of [...old, kept]) {
      await store.inbox.setStatus(id, 'contacted', 'ann@example.org');
      await store.inbox.addNote(id, 'Left a message', 'ann@example.org');
    }
    const db = new Database(file);
    const oldIds = old.map(({ id }) => id);
    for (const id of oldIds)
      db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run(retentionCutoff(366), id);
    db.prepare('UPDATE leads SET created_at = ? WHERE id = ?').run(retentionCutoff(364), kept.id);
    const count = (table: string, column = 'lead_id') =>
      db.prepare(`SELECT COUNT(*) FROM ${table} WHERE ${column} IN (SELECT value FROM json_each(?))`).pluck();
    const tables = ['alerts', 'idempotency_keys', 'lead_terms', 'lead_events'];
    for (const table of tables) expect(count(table).get(JSON.stringify(oldIds)), table).toBeGreaterThan(0);

    expect(await store.purgeOlderThan(retentionCutoff(365))).toBe(2);

    expect(count('leads', 'id').get(JSON.stringify(oldIds))).toBe(0);
    for (const table of tables) expect(count(table).get(JSON.stringify(oldIds)), table).toBe(0);
    expect((await store.getLead(kept.id))?.data.fullName).toBe('Kept Three');
    for (const table of tables) expect(count(table).get(JSON.stringify([kept.id])), table).toBeGreaterThan(0);
    const [audited] = (await store.audit.page({ limit: 1 })).rows;
    expect(audited).toMatchObject({ actor: 'server', action: 'purge', detail: 'count=2', leadId: null });
    expect(await store.purgeOlderThan(retentionCutoff(365))).toBe(0);
    expect((await store.audit.page({ limit: 10 })).rows).toHaveLength(1);
    db.close();
    await store.close();
  });

  it('purges in batches until none older is left', async () => {
    const store = openLeadStore(':memory:');
    for (let n = 0; n < 1203; n += 1) await store.insertLead(lead(`P ${n}`, `key-${n}`));
    expect(await store.purgeOlderThan(new Date(Date.now() + 1000).toISOString())).toBe(1203);
    expect(await store.listLeads()).toEqual([]);
    await store.close();
  });
});
