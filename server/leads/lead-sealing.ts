// Encryption at rest for one lead database: the key it is unlocked with (and the refusal of any other), sealing and
// opening the values of a lead, and sealing the leads written before encryption existed.
import type Database from 'better-sqlite3';
import { keyId, openValue, sealValue } from './lead-cipher.ts';
import { readMeta, writeMeta } from './lead-db.ts';
import { KeyError, resolveLeadKey, type KeySource } from './lead-key.ts';
import { indexKeyOf } from './lead-search.ts';
import type { LeadRow } from './lead-writes.ts';

const KEY_ID = 'key_id';
// Set once every value of the database is sealed (schema 2 had sealed health details only, under 'legacy_sealed').
const CLEAR_SEALED = 'clear_sealed';

export interface Sealer {
  /** `value` sealed for `field` of lead `leadId` (a note's field is `note:<noteId>`). */
  seal(value: string, leadId: string, field: string): string;
  open(sealed: string, leadId: string, field: string): string;
  /** Each value sealed for its field of lead `leadId`. */
  sealAll(values: Record<string, string>, leadId: string): Record<string, string>;
  /** The row's clear fields and its sealed ones opened, in one record. */
  openAll(row: Pick<LeadRow, 'id' | 'data' | 'sealed'>): Record<string, string>;
  /** The keys search terms are hashed with (lead-search.ts): the current key's first. */
  indexKeys(): Buffer[];
}

export const parseStrings = (json: string): Record<string, string> =>
  JSON.parse(json) as Record<string, string>;

export function createSealer(key: Buffer): Sealer {
  const indexKey = indexKeyOf(key);
  return {
    seal: (value, leadId, field) => sealValue(key, value, leadId, field),
    open: (sealed, leadId, field) => openValue(key, sealed, leadId, field),
    indexKeys: () => [indexKey],
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

/** Leads per transaction: the server's writer thread waits for each, so each is kept short. */
export const RESEAL_BATCH = 300;

/**
 * Seals every value older versions stored in clear (names, phones, e-mail; health details before schema 2), and
 * writes the search terms of those leads, once per database; then checkpoints the WAL and rewrites the file (VACUUM,
 * with secure_delete on), so no copy of a clear value stays in either. Runs at start, before anything else writes.
 * Returns how many leads changed.
 */
export function sealLegacyLeads(
  db: Database.Database,
  sealer: Sealer,
  termsOf: (formId: string, values: Record<string, string>) => string[],
): number {
  if (readMeta(db, CLEAR_SEALED) !== undefined) return 0;
  const select = db.prepare<[number], LeadRow>("SELECT * FROM leads WHERE data != '{}' LIMIT ?");
  const update = db.prepare("UPDATE leads SET data = '{}', sealed = ? WHERE id = ?");
  const dropTerms = db.prepare('DELETE FROM lead_terms WHERE lead_id = ?');
  const insertTerm = db.prepare('INSERT OR IGNORE INTO lead_terms (term, lead_id) VALUES (?, ?)');
  // all() before the updates: SQLite must not be written while a statement over the same table is iterating.
  const batch = db.transaction((): number => {
    const rows = select.all(RESEAL_BATCH);
    for (const row of rows) {
      const sealed = { ...parseStrings(row.sealed), ...sealer.sealAll(parseStrings(row.data), row.id) };
      update.run(JSON.stringify(sealed), row.id);
      dropTerms.run(row.id);
      for (const term of termsOf(row.form_id, sealer.openAll(row))) insertTerm.run(term, row.id);
    }
    return rows.length;
  });
  let changed = 0;
  for (let done = batch.immediate(); done > 0; done = batch.immediate()) changed += done;
  writeMeta(db, CLEAR_SEALED, new Date().toISOString());
  if (changed > 0) scrubFile(db);
  return changed;
}

/** Moves the WAL into the file and empties it, then rebuilds the file: old page images of changed rows go. */
export function scrubFile(db: Database.Database): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
