// Encryption at rest for one lead database: its key ring (the keys it is unlocked with, and the refusal of a ring
// that lacks the key its values were last sealed with), sealing and opening the values of a lead, and sealing the
// values older versions stored in clear.
import type Database from 'better-sqlite3';
import { CipherError, fingerprintOf, keyId, openValue, sealedKeyId, sealValue } from './cipher.ts';
import { readMeta, writeMeta } from '../sqlite/schema.ts';
import { KeyError, readKeyFile, resolveLeadKey, type KeySource } from './key-file.ts';
import type { FormDefinition } from '../../../generated/content-types.ts';
import { searchKindsOf } from './lead-fields.ts';
import { indexKeyOf, leadTerms } from './search-terms.ts';
import type { LeadRow } from '../sqlite/write-ops.ts';

/** The id of the database's first key: v1 values (written before values named their key) open with it. */
export const KEY_ID = 'key_id';
/** The id of the key that seals now; `rotate-key` changes it, and a running server follows within a second. */
export const CURRENT_KEY_ID = 'current_key_id';
// Set once every value of the database is sealed (schema 2 had sealed health details only, under 'legacy_sealed').
export const CLEAR_SEALED = 'clear_sealed';
/** How often a running server asks the database which key seals now. */
export const CURRENT_CHECK_MS = 1000;

export interface RingKey {
  id: string;
  key: Buffer;
  /** The key search terms are hashed with (lead-search.ts). */
  indexKey: Buffer;
}

export const ringKey = (key: Buffer): RingKey => ({ id: keyId(key), key, indexKey: indexKeyOf(key) });

export interface Keyring {
  /** The key that seals. */
  current(): RingKey;
  /** The key with this id; undefined when the ring lacks it (after reading the key file again, if there is one). */
  find(id: string): RingKey | undefined;
  /** Every key, the current one first. */
  all(): RingKey[];
  /** The key v1 values open with. */
  legacy(): RingKey | undefined;
}

export interface KeyringSources {
  /** The database's first key id (meta key_id), for v1 values. */
  originalId?: string;
  /** The keys again, from the key file: a rotation adds one while the server runs. */
  reload?: () => readonly Buffer[];
  /** Which key seals now (meta current_key_id), asked at most once a second. */
  currentId?: () => string | undefined;
}

export function createKeyring(keys: readonly Buffer[], sources: KeyringSources = {}): Keyring {
  const byId = new Map<string, RingKey>();
  const add = (key: Buffer) => {
    const entry = ringKey(key);
    if (!byId.has(entry.id)) byId.set(entry.id, entry);
  };
  keys.forEach(add);
  let current = ringKey(keys[0] ?? Buffer.alloc(0));
  let checkedAt = 0;
  let reloadedAt = 0;
  function find(id: string): RingKey | undefined {
    const known = byId.get(id);
    if (known || !sources.reload || Date.now() - reloadedAt < CURRENT_CHECK_MS) return known;
    reloadedAt = Date.now();
    try {
      sources.reload().forEach(add);
    } catch {
      // The file as it was stays in use; a value it cannot open says so.
    }
    return byId.get(id);
  }
  return {
    current() {
      if (sources.currentId && Date.now() - checkedAt >= CURRENT_CHECK_MS) {
        checkedAt = Date.now();
        let id: string | undefined;
        try {
          id = sources.currentId();
        } catch {
          // A database that cannot be read now (closed, failing) is the writer's to report; this key seals meanwhile.
        }
        if (id !== undefined && id !== current.id) current = find(id) ?? current;
      }
      return current;
    },
    find,
    all: () => [current, ...[...byId.values()].filter((entry) => entry.id !== current.id)],
    legacy: () => (sources.originalId === undefined ? current : find(sources.originalId)),
  };
}

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
  /** A submission's fingerprint under each key, the current key's first: a repeat across a rotation is a repeat. */
  fingerprints(text: string): string[];
}

export const parseStrings = (json: string): Record<string, string> =>
  JSON.parse(json) as Record<string, string>;

/** A sealer over `ring` (or over one key alone). */
export function createSealer(ring: Keyring | Buffer): Sealer {
  const keyring = Buffer.isBuffer(ring) ? createKeyring([ring]) : ring;
  function open(sealed: string, leadId: string, field: string): string {
    const id = sealedKeyId(sealed);
    const key = id === null ? keyring.legacy() : id === undefined ? keyring.current() : keyring.find(id);
    if (!key)
      throw new CipherError(
        `field ${field} of lead ${leadId} was sealed with key id ${id ?? 'of the first key'}, which the key ring lacks`,
      );
    return openValue(key.key, sealed, leadId, field);
  }
  function sealAll(values: Record<string, string>, leadId: string): Record<string, string> {
    const { key, id } = keyring.current();
    return Object.fromEntries(
      Object.entries(values).map(([field, value]) => [field, sealValue(key, id, value, leadId, field)]),
    );
  }
  return {
    seal(value, leadId, field) {
      const { key, id } = keyring.current();
      return sealValue(key, id, value, leadId, field);
    },
    open,
    sealAll,
    openAll(row) {
      const opened = Object.entries(parseStrings(row.sealed)).map(([field, value]) => [
        field,
        open(value, row.id, field),
      ]);
      return { ...parseStrings(row.data), ...Object.fromEntries(opened) };
    },
    indexKeys: () => keyring.all().map((entry) => entry.indexKey),
    fingerprints: (text) => keyring.all().map((entry) => fingerprintOf(entry.key, text)),
  };
}

export interface UnlockOptions {
  /** LEADS_ENCRYPTION_KEY (one key or a ring); without it the key file. */
  key?: Buffer | readonly Buffer[];
  /** LEADS_KEY_FILE; undefined for the file beside the database. */
  keyFile?: string;
  /** Create the key file when there is none and the database holds nothing sealed yet. */
  createKeyFile?: boolean;
}

/** What a database's meta says of its keys, read by its store (SQLite at once, PostgreSQL through a query). */
export interface KeyMeta {
  /** meta key_id: the database's first key. */
  original: string | undefined;
  /** meta current_key_id: the key it was last told seals. */
  current: string | undefined;
}

/**
 * The key ring for a database whose meta says `meta`, refusing one without the key its values were last sealed with;
 * `writes` are the meta rows the store must write before its first seal. The ring's first key seals from now on; a
 * running server follows a rotation (`currentId`, the key file read again). `where` names the database in messages.
 */
export function chooseKeyring(
  meta: KeyMeta,
  where: { dbPath: string; label: string },
  options: UnlockOptions,
  currentId: () => string | undefined,
): { keyring: Keyring; keySource: KeySource; writes: [name: string, value: string][] } {
  const { original } = meta;
  const expected = meta.current ?? original;
  const { keys, source } = resolveLeadKey({
    dbPath: where.dbPath,
    configured: options.key,
    keyFile: options.keyFile,
    // A new key for a database that already holds sealed values would leave them unreadable for good.
    mayCreate: (options.createKeyFile ?? true) && original === undefined,
  });
  const ids = keys.map(keyId);
  if (expected !== undefined && !ids.includes(expected))
    throw new KeyError(
      `The lead encryption key does not match ${where.label}: its values were last sealed with key id ${expected}, ` +
        `the key ring given holds key id ${ids.join(', ')}. Supply the key it was sealed with (LEADS_ENCRYPTION_KEY, ` +
        'or its key file: LEADS_KEY_FILE, or the file beside it).',
    );
  const writes: [string, string][] = [];
  if (original === undefined) writes.push([KEY_ID, ids[0] ?? '']);
  if (expected !== ids[0]) writes.push([CURRENT_KEY_ID, ids[0] ?? '']);
  const file = source.kind === 'file' || source.kind === 'created' ? source.file : undefined;
  const keyring = createKeyring(keys, {
    originalId: original ?? ids[0],
    reload: file === undefined ? undefined : () => readKeyFile(file).keys,
    currentId,
  });
  return { keyring, keySource: source, writes };
}

/** The key ring for the SQLite database `db` at `path` (see chooseKeyring). */
export function unlockDatabase(
  db: Database.Database,
  path: string,
  options: UnlockOptions,
): { keyring: Keyring; keySource: KeySource } {
  const meta = { original: readMeta(db, KEY_ID), current: readMeta(db, CURRENT_KEY_ID) };
  const { keyring, keySource, writes } = chooseKeyring(meta, { dbPath: path, label: path }, options, () =>
    readMeta(db, CURRENT_KEY_ID),
  );
  for (const [name, value] of writes) writeMeta(db, name, value);
  return { keyring, keySource };
}

/** Leads per transaction: the server's writer thread waits for each, so each is kept short. */
export const RESEAL_BATCH = 300;

export type TermsOf = (formId: string, values: Record<string, string>) => string[];

/** A lead's hashed search terms under the current key, the searchable fields named by its form's definition. */
export const termsFor =
  (sealer: Sealer, forms: ReadonlyMap<string, FormDefinition> | undefined): TermsOf =>
  (formId, values) =>
    leadTerms(values, searchKindsOf(forms?.get(formId)), sealer.indexKeys()[0] ?? Buffer.alloc(0));

/**
 * Seals every value of the leads matching `condition` (SQL over `leads`, with `params`) under the current key, with
 * their search terms written anew, `batch` leads per IMMEDIATE transaction so other writers wait only briefly.
 * Goes through the leads once, in id order; returns how many changed.
 */
export function resealLeads(
  db: Database.Database,
  sealer: Sealer,
  termsOf: TermsOf,
  { condition, params = [], batch = RESEAL_BATCH }: { condition: string; params?: unknown[]; batch?: number },
): number {
  const select = db.prepare<unknown[], LeadRow>(
    `SELECT * FROM leads WHERE id > ? AND (${condition}) ORDER BY id LIMIT ?`,
  );
  const update = db.prepare("UPDATE leads SET data = '{}', sealed = ? WHERE id = ?");
  const dropTerms = db.prepare('DELETE FROM lead_terms WHERE lead_id = ?');
  const insertTerm = db.prepare('INSERT OR IGNORE INTO lead_terms (term, lead_id) VALUES (?, ?)');
  // all() before the updates: SQLite must not be written while a statement over the same table is iterating.
  const step = db.transaction((after: string): { count: number; last: string | undefined } => {
    const rows = select.all(after, ...params, batch);
    for (const row of rows) {
      const values = sealer.openAll(row);
      update.run(JSON.stringify(sealer.sealAll(values, row.id)), row.id);
      dropTerms.run(row.id);
      for (const term of termsOf(row.form_id, values)) insertTerm.run(term, row.id);
    }
    return { count: rows.length, last: rows.at(-1)?.id };
  });
  let changed = 0;
  for (let done = step.immediate(''); done.last !== undefined; done = step.immediate(done.last))
    changed += done.count;
  return changed;
}

/**
 * Seals every value older versions stored in clear (names, phones, e-mail; health details before schema 2), and
 * writes the search terms of those leads, once per database; then checkpoints the WAL and rewrites the file (VACUUM,
 * with secure_delete on), so no copy of a clear value stays in either. Runs at start, before anything else writes.
 * Returns how many leads changed.
 */
export function sealLegacyLeads(db: Database.Database, sealer: Sealer, termsOf: TermsOf): number {
  if (readMeta(db, CLEAR_SEALED) !== undefined) return 0;
  const changed = resealLeads(db, sealer, termsOf, { condition: "data != '{}'" });
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
