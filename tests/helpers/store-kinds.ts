// Both lead stores for one contract suite: each test opens fresh ones through `open`, and may open a second instance
// on the same database (`again`), as a second server would; `raw` reads a table as stored, to check what the
// database itself holds. PostgreSQL runs as a throwaway cluster, one database per test (postgres-per-test.ts).
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import type { FormDefinition } from '../../generated/content-types.ts';
import { openLeadStore, type LeadStore } from '../../server/leads/lead-store.ts';
import { openPostgresLeadStore } from '../../server/leads/postgres/pg-lead-store.ts';
import { postgresPerTest } from './postgres-per-test.ts';

export interface StoreUnderTest {
  store: LeadStore;
  /** A second instance on the same database. */
  again(): Promise<LeadStore>;
  /** Every row of `sql` (no parameters), as the database returns them. */
  raw(sql: string): Promise<Record<string, unknown>[]>;
}

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  open(forms?: ReadonlyMap<string, FormDefinition>): Promise<StoreUnderTest>;
}

/** The two kinds, with the set-up and clean-up hooks of the calling test file registered. */
export function storeKinds(): StoreKind[] {
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const postgresDatabases = postgresPerTest((cleanup) => void cleanups.push(cleanup));

  const sqlite: StoreKind = {
    name: 'sqlite',
    async open(forms) {
      const dir = mkdtempSync(join(tmpdir(), 'store-contract-'));
      const file = join(dir, 'leads.db');
      const key = randomBytes(32);
      const opened: LeadStore[] = [];
      cleanups.push(async () => {
        for (const store of opened) await store.close().catch(() => undefined);
        rmSync(dir, { recursive: true, force: true });
      });
      const openOne = async () => {
        const store = openLeadStore(file, { key, forms });
        opened.push(store);
        return store;
      };
      return {
        store: await openOne(),
        again: openOne,
        async raw(sql) {
          const db = new Database(file, { readonly: true });
          try {
            return db.prepare(sql).all() as Record<string, unknown>[];
          } finally {
            db.close();
          }
        },
      };
    },
  };

  const postgres: StoreKind = {
    name: 'postgres',
    async open(forms) {
      // The database and its reader go after the test, once its stores are closed.
      const { url, reader } = await postgresDatabases.database('contract');
      const key = randomBytes(32);
      const opened: LeadStore[] = [];
      cleanups.push(async () => {
        for (const store of opened) await store.close().catch(() => undefined);
      });
      const openOne = async () => {
        const store = await openPostgresLeadStore(url, { key, forms });
        opened.push(store);
        return store;
      };
      return {
        store: await openOne(),
        again: openOne,
        raw: async (sql) => (await reader.query<Record<string, unknown>>(sql)).rows,
      };
    },
  };
  return [sqlite, postgres];
}
