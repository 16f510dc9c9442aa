// Sealing again, on SQLite: the values older versions stored in clear (once per database, at start), and every value
// under a new key (rotation.ts); then the file rewritten, so no copy of an old value stays in it.
import type Database from 'better-sqlite3';
import type { LeadRow } from '../contract/rows.ts';
import {
  CLEAR_SEALED,
  openSource,
  RESEAL_BATCH,
  sealSource,
  sealStatusChange,
  type Sealer,
  type TermsOf,
} from '../shared/sealing.ts';
import type { LeadStatus } from '../contract/inbox.ts';
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
  const update = db.prepare("UPDATE leads SET data = '{}', sealed = ?, source = ? WHERE id = ?");
  const dropTerms = db.prepare('DELETE FROM lead_terms WHERE lead_id = ?');
  const insertTerm = db.prepare('INSERT OR IGNORE INTO lead_terms (term, lead_id) VALUES (?, ?)');
  // all() before the updates: SQLite must not be written while a statement over the same table is iterating.
  const step = db.transaction((after: string): { count: number; last: string | undefined } => {
    const rows = select.all(after, ...params, batch);
    for (const row of rows) {
      const values = sealer.openAll(row);
      update.run(
        JSON.stringify(sealer.sealAll(values, row.id)),
        sealSource(sealer, openSource(sealer, row), row.id),
        row.id,
      );
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

/** Runs `step` on batches after the last id it returned, each an IMMEDIATE transaction, until none; sums counts. */
function inBatches(
  db: Database.Database,
  step: (after: string) => { count: number; last: string | undefined },
) {
  const run = db.transaction(step);
  let changed = 0;
  for (let done = run.immediate(''); done.last !== undefined; done = run.immediate(done.last))
    changed += done.count;
  return changed;
}

/**
 * Seals the source pages and status changes older versions stored in clear (a clear source starts with /, a clear
 * change has its from and to in their columns); returns how many rows changed.
 */
export function sealSourcesAndHistory(db: Database.Database, sealer: Sealer, batch = RESEAL_BATCH): number {
  const leads = db.prepare<[string, number], { id: string; source: string }>(
    "SELECT id, source FROM leads WHERE id > ? AND source NOT LIKE 'v_.%' ORDER BY id LIMIT ?",
  );
  const updateSource = db.prepare('UPDATE leads SET source = ? WHERE id = ?');
  const events = db.prepare<
    [string, number],
    { id: string; lead_id: string; from_status: LeadStatus; to_status: LeadStatus }
  >(
    `SELECT id, lead_id, from_status, to_status FROM lead_events
     WHERE id > ? AND kind = 'status' AND note_sealed IS NULL ORDER BY id LIMIT ?`,
  );
  const updateEvent = db.prepare(
    'UPDATE lead_events SET from_status = NULL, to_status = NULL, note_sealed = ? WHERE id = ?',
  );
  return (
    inBatches(db, (after) => {
      const rows = leads.all(after, batch);
      for (const row of rows) updateSource.run(sealSource(sealer, row.source, row.id), row.id);
      return { count: rows.length, last: rows.at(-1)?.id };
    }) +
    inBatches(db, (after) => {
      const rows = events.all(after, batch);
      for (const row of rows)
        updateEvent.run(
          sealStatusChange(sealer, row.lead_id, row.id, { from: row.from_status, to: row.to_status }),
          row.id,
        );
      return { count: rows.length, last: rows.at(-1)?.id };
    })
  );
}

/**
 * Seals every value older versions stored in clear (names, phones, e-mail; health details before schema 2; source
 * pages and status changes), and writes the search terms of those leads; then checkpoints the WAL and rewrites the
 * file (VACUUM, with secure_delete on), so no copy of a clear value stays in either. Runs at start, before anything
 * else writes. Returns how many leads and status changes changed.
 */
export function sealLegacyLeads(db: Database.Database, sealer: Sealer, termsOf: TermsOf): number {
  let changed = 0;
  if (readMeta(db, CLEAR_SEALED) === undefined) {
    changed += resealLeads(db, sealer, termsOf, { condition: "data != '{}'" });
    writeMeta(db, CLEAR_SEALED, new Date().toISOString());
  }
  changed += sealSourcesAndHistory(db, sealer);
  if (changed > 0) scrubFile(db);
  return changed;
}

/** Moves the WAL into the file and empties it, then rebuilds the file: old page images of changed rows go. */
export function scrubFile(db: Database.Database): void {
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.exec('VACUUM');
  db.pragma('wal_checkpoint(TRUNCATE)');
}
