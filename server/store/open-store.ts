// The store the server runs on: PostgreSQL when DATABASE_URL is set (several instances on one database), else the
// SQLite file LEADS_DB (one instance, nothing to set up). Both implement one LeadStore.
import type { ServerConfig } from '../config.ts';
import type { LeadStore, StoreOptions } from './contract/lead-store.ts';
import { openLeadStore } from './sqlite/lead-store.ts';
import { openPostgresLeadStore } from './postgres/pg-lead-store.ts';

export type StoreConfig = Pick<
  ServerConfig,
  'leadsDb' | 'databaseUrl' | 'databasePoolSize' | 'leadsEncryptionKey' | 'leadsKeyFile' | 'auditKey'
>;

export async function openStore(
  config: StoreConfig,
  options: Pick<StoreOptions, 'forms' | 'onAuditHead'> = {},
): Promise<LeadStore> {
  const keys = {
    key: config.leadsEncryptionKey,
    keyFile: config.leadsKeyFile,
    forms: options.forms,
    auditKey: config.auditKey,
    onAuditHead: options.onAuditHead,
  };
  return config.databaseUrl === undefined
    ? openLeadStore(config.leadsDb, keys)
    : openPostgresLeadStore(config.databaseUrl, { ...keys, max: config.databasePoolSize });
}
