// Sealing again, on SQLite: the values older versions stored in clear (once per database, at start), and every value
// under a new key (rotation.ts); then the file rewritten, so no copy of an old value stays in it.
import type Database from 'better-sqlite3';
import type { LeadRow } from '../contract/rows.ts';
import { CLEAR_SEALED, RESEAL_BATCH, type Sealer, type TermsOf } from '../shared/sealing.ts';
import { readMeta, writeMeta } from './schema.ts';

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
