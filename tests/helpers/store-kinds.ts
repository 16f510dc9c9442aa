// Both lead stores for one contract suite: each test opens fresh ones through `open`, and may open a second instance
// on the same database (`again`), as a second server would; `raw` reads a table as stored, to check what the
// database itself holds. PostgreSQL runs as a throwaway cluster, one database per test (postgres-per-test.ts).
import { randomBytes } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach } from 'vitest';
import type { FormDefinition } from '../../generated/content-types.ts';
import { keyFileOf, writeKeyFile } from '../../server/store/shared/key-file.ts';
import { rotateLeadKey } from '../../server/store/sqlite/rotation.ts';
import type { RotationOptions, RotationResult } from '../../server/store/shared/key-rotation.ts';
import { openLeadStore, type LeadStoreOptions } from '../../server/store/sqlite/lead-store.ts';
import type { LeadStore, NewLead } from '../../server/store/contract/lead-store.ts';
import { openPostgresLeadStore } from '../../server/store/postgres/pg-lead-store.ts';
import { rotatePostgresLeadKey } from '../../server/store/postgres/pg-rotation.ts';
import { postgresPerTest } from './postgres-per-test.ts';
import { useTempDir } from './temp-dir.ts';

/** An insurance-verification lead with every kind of value (a name, a phone, a date of birth, a member id). */
export const sampleLead = (extra: Partial<NewLead> = {}): NewLead => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: {
    fullName: 'Jane Doe',
    phone: '(555) 010-4477',
    dateOfBirth: '1987-03-14',
    memberId: 'XZH-99817234',
  },
  ...extra,
});

/** An insurance-verification lead of the named person (a name, a phone, a member id), for tests that tell leads apart. */
export const namedLead = (fullName = 'Jane Quist', extra: Partial<NewLead> = {}): NewLead => ({
  formId: 'insurance-verification',
  source: '/insurance',
  fields: { fullName, phone: '(555) 010-4477', memberId: 'XZH-99817234' },
  ...extra,
});

export interface StoreUnderTest {
  store: LeadStore;
  /** A second instance on the same database, as a second server would open it (`options` its own, such as a key). */
  again(options?: LeadStoreOptions): Promise<LeadStore>;
  /** Every row of `sql` (no parameters), as the database returns them. */
  raw(sql: string): Promise<Record<string, unknown>[]>;
  /** Runs `sql` (parameters `$1`, `$2`...) on the database directly, as an operator or an attacker with access would. */
  sql(sql: string, params?: unknown[]): Promise<Record<string, unknown>[]>;
  /** `npm run leads -- rotate-key` on this database, with its keys as the servers read them. */
  rotate(options: Omit<RotationOptions, 'key' | 'keyFile'> & { key?: Buffer[] }): Promise<RotationResult>;
  /** The key file the stores read (`keyFile: true`), else undefined. */
  keyFile: string | undefined;
  /** Where the database is, for another process to open it: the SQLite file, or PostgreSQL's URL. */
  location: string;
}

export interface OpenOptions {
  forms?: ReadonlyMap<string, FormDefinition>;
  /** The keys in a key file (beside the SQLite file; LEADS_KEY_FILE for PostgreSQL) rather than given. */
  keyFile?: boolean;
  /** The keys given (LEADS_ENCRYPTION_KEY); a fresh key by default. */
  key?: Buffer | Buffer[];
}

export interface StoreKind {
  name: 'sqlite' | 'postgres';
  open(
    forms?: ReadonlyMap<string, FormDefinition>,
    options?: Omit<OpenOptions, 'forms'>,
  ): Promise<StoreUnderTest>;
}

/** The two kinds, with the set-up and clean-up hooks of the calling test file registered. */
export function storeKinds(): StoreKind[] {
  // The test's folder, asked for before the clean-ups so that it goes after the stores in it are closed; each store a
  // test opens gets a folder of its own in it.
  const tempDir = useTempDir('store-contract-');
  let folders = 0;
  const storeDir = () => {
    const dir = join(tempDir(), `store-${(folders += 1)}`);
    mkdirSync(dir);
    return dir;
  };
  const cleanups: (() => Promise<void> | void)[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  const postgresDatabases = postgresPerTest((cleanup) => void cleanups.push(cleanup));

  const sqlite: StoreKind = {
    name: 'sqlite',
    async open(forms, options = {}) {
      const file = join(storeDir(), 'leads.db');
      const key = options.keyFile ? undefined : (options.key ?? randomBytes(32));
      const opened: LeadStore[] = [];
      cleanups.push(async () => {
        for (const store of opened) await store.close().catch(() => undefined);
      });
      const openOne = async (more: LeadStoreOptions = {}) => {
        const store = openLeadStore(file, { key, forms, ...more });
        opened.push(store);
        return store;
      };
      const run = (sql: string, params: unknown[], readonly: boolean) => {
        const db = new Database(file, { readonly });
        try {
          // PostgreSQL's $1 as a name SQLite binds (@p1).
          const statement = db.prepare(sql.replace(/\$(\d+)/g, '@p$1'));
          const bound = Object.fromEntries(params.map((value, n) => [`p${n + 1}`, value]));
          if (!statement.reader) {
            statement.run(bound);
            return [];
          }
          return statement.all(bound) as Record<string, unknown>[];
        } finally {
          db.close();
        }
      };
      return {
        store: await openOne(),
        again: openOne,
        raw: async (sql) => run(sql, [], true),
        sql: async (sql, params = []) => run(sql, params, false),
        rotate: ({ key: keys, ...rest }) => rotateLeadKey(file, { key: keys ?? key, ...rest }),
        keyFile: options.keyFile ? keyFileOf(file) : undefined,
        location: file,
      };
    },
  };

  const postgres: StoreKind = {
    name: 'postgres',
    async open(forms, options = {}) {
      // The database and its reader go after the test, once its stores are closed.
      const { url, reader } = await postgresDatabases.database('contract');
      const keyFile = options.keyFile ? join(storeDir(), 'leads.key') : undefined;
      if (keyFile !== undefined) writeKeyFile(keyFile, [randomBytes(32)]);
      const key = keyFile === undefined ? (options.key ?? randomBytes(32)) : undefined;
      const opened: LeadStore[] = [];
      cleanups.push(async () => {
        for (const store of opened) await store.close().catch(() => undefined);
      });
      const openOne = async (more: LeadStoreOptions = {}) => {
        const store = await openPostgresLeadStore(url, { key, keyFile, forms, ...more });
        opened.push(store);
        return store;
      };
      const sql = async (text: string, params: unknown[] = []) =>
        (await reader.query<Record<string, unknown>>(text, params)).rows;
      return {
        store: await openOne(),
        again: openOne,
        raw: (text) => sql(text),
        sql,
        rotate: ({ key: keys, ...rest }) =>
          rotatePostgresLeadKey(url, { key: keys ?? key, keyFile, ...rest }),
        keyFile,
        location: url,
      };
    },
  };
  return [sqlite, postgres];
}
