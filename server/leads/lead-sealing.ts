// Encryption at rest for one lead database: the key it is unlocked with (and the refusal of any other), sealing and
// opening the values of a lead, and sealing the leads written before encryption existed.
import type Database from 'better-sqlite3';
import { keyId, openValue, sealValue } from './lead-cipher.ts';
import { readMeta, writeMeta } from './lead-db.ts';
import { KeyError, resolveLeadKey, type KeySource } from './lead-key.ts';
import type { LeadRow } from './lead-writes.ts';

const KEY_ID = 'key_id';
const LEGACY_SEALED = 'legacy_sealed';

export interface Sealer {
  /** Each value sealed for its field of lead `leadId`. */
  sealAll(values: Record<string, string>, leadId: string): Record<string, string>;
  /** The row's clear fields and its sealed ones opened, in one record. */
  openAll(row: Pick<LeadRow, 'id' | 'data' | 'sealed'>): Record<string, string>;
}

export const parseStrings = (json: string): Record<string, string> =>
  JSON.parse(json) as Record<string, string>;

export function createSealer(key: Buffer): Sealer {
  return {
    sealAll: (values, leadId) =>
      Object.fromEntries(
        Object.entries(values).map(([field, value]) => [field, sealValue(key, value, leadId, field)]),
      ),
    openAll(row) {
      const opened = Object.entries(parseStrings(row.sealed)).map(([field, value]) => [
        field,
        openValue(key, value, row.id, field),
      ]);
      return { ...parseStrings(row.data), ...Object.fromEntries(opened) };
    },
  };
}

export interface UnlockOptions {
  /** LEADS_ENCRYPTION_KEY; without it the key file. */
  key?: Buffer;
  /** LEADS_KEY_FILE; undefined for the file beside the database. */
  keyFile?: string;
  /** Create the key file when there is none and the database holds nothing sealed yet. */
  createKeyFile?: boolean;
}

/** The key for this database, refusing one that is not the key its sealed values were written with. */
export function unlockDatabase(
  db: Database.Database,
  path: string,
  options: UnlockOptions,
): { key: Buffer; keySource: KeySource } {
  const expected = readMeta(db, KEY_ID);
  const { key, source } = resolveLeadKey({
    dbPath: path,
    configured: options.key,
    keyFile: options.keyFile,
    // A new key for a database that already holds sealed values would leave them unreadable for good.
    mayCreate: (options.createKeyFile ?? true) && expected === undefined,
  });
  const actual = keyId(key);
  if (expected === undefined) writeMeta(db, KEY_ID, actual);
  else if (expected !== actual)
    throw new KeyError(
      `The lead encryption key does not match ${path}: it was written with key id ${expected}, this key has id ` +
        `${actual}. Supply the key it was created with (LEADS_ENCRYPTION_KEY, or its key file: LEADS_KEY_FILE, or the file beside it).`,
    );
  return { key, keySource: source };
}

/**
 * Seals the fields `shouldSeal` names in leads stored before encryption existed (schema version 1), once per
 * database. Runs at start, before anything else writes. Returns how many leads changed.
 */
export function sealLegacyLeads(
  db: Database.Database,
  sealer: Sealer,
  shouldSeal: (formId: string, field: string) => boolean,
): number {
  const run = db.transaction((): number => {
    if (readMeta(db, LEGACY_SEALED) !== undefined) return 0;
    const update = db.prepare('UPDATE leads SET data = ?, sealed = ? WHERE id = ?');
    let changed = 0;
    // all() before the updates: SQLite must not be written while a statement over the same table is iterating.
    for (const row of db.prepare<[], LeadRow>("SELECT * FROM leads WHERE sealed = '{}'").all()) {
      const entries = Object.entries(parseStrings(row.data));
      const toSeal = entries.filter(([name]) => shouldSeal(row.form_id, name));
      if (toSeal.length === 0) continue;
      const clear = Object.fromEntries(entries.filter(([name]) => !shouldSeal(row.form_id, name)));
      update.run(
        JSON.stringify(clear),
        JSON.stringify(sealer.sealAll(Object.fromEntries(toSeal), row.id)),
        row.id,
      );
      changed += 1;
    }
    writeMeta(db, LEGACY_SEALED, new Date().toISOString());
    return changed;
  });
  return run.immediate();
}
