// What the production CLIs (`npm run leads`, `npm run staff`) share: the store they open, the one the server uses,
// read the same way (server/config.ts), and who the audit log names for their acts.
import { existsSync } from 'node:fs';
import { userInfo } from 'node:os';
import { CliFailure, UsageError, type CliIo } from '../../core/cli.ts';
import { readConfig, type ServerConfig } from '../config.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import { openPostgresLeadStore } from '../store/postgres/pg-lead-store.ts';
import { openLeadStore } from '../store/sqlite/lead-store.ts';

/** Who the audit log names for a CLI's acts: `cli:<os user>`. */
export const actorOf = (io: CliIo) => `cli:${io.user ?? userInfo().username}`;

/** LEADS_DB, checked: a file that exists. */
export function databaseFile(config: ServerConfig): string {
  if (config.leadsDb === ':memory:')
    throw new UsageError('LEADS_DB is :memory:, which only the server can see');
  if (!existsSync(config.leadsDb))
    throw new CliFailure(
      `No lead database at ${config.leadsDb}. Set LEADS_DB to the file the server writes (default data/leads.db).`,
    );
  return config.leadsDb;
}

/** The store the server uses: PostgreSQL when DATABASE_URL is set (its key from the environment), else LEADS_DB. */
export async function openStore(io: CliIo): Promise<LeadStore> {
  const config = readConfig(io.env, io.cwd);
  if (config.databaseUrl !== undefined)
    return openPostgresLeadStore(config.databaseUrl, {
      key: config.leadsEncryptionKey,
      keyFile: config.leadsKeyFile,
      auditKey: config.auditKey,
      max: 2,
    });
  // No writer thread: the CLI's one write (retry-dead) is small, and a thread would only slow its start.
  return openLeadStore(databaseFile(config), {
    key: config.leadsEncryptionKey,
    keyFile: config.leadsKeyFile,
    auditKey: config.auditKey,
    createKeyFile: false,
    writerThread: false,
  });
}

/** Opens the store, hands it to `use`, and closes it however `use` ends. */
export async function withStore<T>(io: CliIo, use: (store: LeadStore) => Promise<T>): Promise<T> {
  const store = await openStore(io);
  try {
    return await use(store);
  } finally {
    await store.close();
  }
}
