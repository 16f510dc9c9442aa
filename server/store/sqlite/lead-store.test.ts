import { mkdirSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { QueueFullError } from '../shared/group-commit.ts';
import { SCHEMA_VERSION } from './schema.ts';
import { writeVersionOneFile } from '../../../tests/helpers/legacy-lead-file.ts';
import { sampleLead } from '../../../tests/helpers/store-kinds.ts';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { openLeadStore } from './lead-store.ts';

const tempDir = useTempDir('lead-store-');
const dbFile = () => join(tempDir(), 'nested', 'leads.db');
const raw = <T>(file: string, sql: string, ...params: unknown[]): T => {
  const db = new Database(file, { readonly: true });
  try {
    return db.prepare(sql).get(...params) as T;
  } finally {
    db.close();
  }
};

const lead = sampleLead;

// SQLite only: its file (folder, WAL, schema version, the key file beside it), the upgrade of files older versions wrote,
// and its batch writer's queue. Everything a store promises is tested on both stores in store-contract*.test.ts.
describe('lead store (SQLite)', () => {
  it('creates its folder and schema, durable settings and a schema version', async () => {
    const file = dbFile();
    await openLeadStore(file).close();
    const db = new Database(file);
    expect(db.pragma('user_version', { simple: true })).toBe(SCHEMA_VERSION);
    expect(db.pragma('journal_mode', { simple: true })).toBe('wal');
    db.close();
  });

  it('refuses to start without the key file beside a database that holds sealed values', async () => {
    const file = dbFile();
    const store = openLeadStore(file);
    await store.insertLead(lead());
    await store.close();
    rmSync(`${file}.key`);
    // A new key file would make the sealed values unreadable for good: refused instead.
    expect(() => openLeadStore(file)).toThrow(/No encryption key/);
  });

  it('seals every clear value of leads stored by older versions, once, and makes them searchable', async () => {
    const file = dbFile();
    mkdirSync(dirname(file), { recursive: true });
    writeVersionOneFile(file);

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
