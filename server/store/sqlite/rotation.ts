// rotate-key on the SQLite lead database: the steps of shared/key-rotation.ts over its statements, each batch a short
// IMMEDIATE transaction, and the file rewritten at the end.
import type Database from 'better-sqlite3';
import {
  rotateKeys,
  type RotationOptions,
  type RotationResult,
  type RotationTarget,
} from '../shared/key-rotation.ts';
import { CURRENT_KEY_ID } from '../shared/keyring.ts';
import { eventField, type Sealer } from '../shared/sealing.ts';
import { auditSigner } from '../shared/audit-keys.ts';
import { auditHeadFileOf, createSqliteAuditLog } from './audit-log.ts';
import { unlockDatabase } from './keys.ts';
import { resealLeads, scrubFile } from './reseal.ts';
import { openLeadDatabase, writeMeta } from './schema.ts';

/** Seals again every note and status change whose value does not match `pattern`; returns how many. */
function resealNotes(db: Database.Database, sealer: Sealer, pattern: string, batch: number): number {
  const select = db.prepare<
    [string, string, number],
    { id: string; lead_id: string; kind: 'note' | 'status'; note_sealed: string }
  >(
    `SELECT id, lead_id, kind, note_sealed FROM lead_events
     WHERE id > ? AND note_sealed IS NOT NULL AND note_sealed NOT LIKE ? ORDER BY id LIMIT ?`,
  );
  const update = db.prepare('UPDATE lead_events SET note_sealed = ? WHERE id = ?');
  const step = db.transaction((after: string) => {
    const rows = select.all(after, pattern, batch);
    for (const row of rows) {
      const field = eventField(row);
      update.run(sealer.seal(sealer.open(row.note_sealed, row.lead_id, field), row.lead_id, field), row.id);
    }
    return { count: rows.length, last: rows.at(-1)?.id };
  });
  let changed = 0;
  for (let done = step.immediate(''); done.last !== undefined; done = step.immediate(done.last))
    changed += done.count;
  return changed;
}

/** Whether a lead holds a value not matching @pattern (a clear one, or one sealed under another key). */
const STALE_LEAD =
  "data != '{}' OR source NOT LIKE @pattern OR EXISTS (SELECT 1 FROM json_each(leads.sealed) WHERE json_each.value NOT LIKE @pattern)";

/** The SQLite lead database `db` at `dbPath` as a rotation target. */
function sqliteTarget(db: Database.Database, dbPath: string, options: RotationOptions): RotationTarget {
  const { keyring, keySource } = unlockDatabase(db, dbPath, { ...options, createKeyFile: false });
  return {
    keyring,
    keySource,
    setCurrentKey: async (id) => writeMeta(db, CURRENT_KEY_ID, id),
    reseal: async (sealer, termsOf, pattern, batch) =>
      resealLeads(db, sealer, termsOf, { condition: STALE_LEAD, params: [{ pattern }], batch }) +
      resealNotes(db, sealer, pattern, batch),
    stale: async (pattern) =>
      db
        .prepare<[{ pattern: string }], number>(
          `SELECT (SELECT COUNT(*) FROM leads WHERE ${STALE_LEAD})
                + (SELECT COUNT(*) FROM lead_events WHERE note_sealed NOT LIKE @pattern)`,
        )
        .pluck()
        .get({ pattern }) ?? 0,
    // Old page images of the resealed rows go from the WAL and the file.
    scrub: async () => scrubFile(db),
    audit: (ring) =>
      createSqliteAuditLog(db, {
        signer: auditSigner(ring, options.auditKey),
        headFile: auditHeadFileOf(dbPath),
      }),
  };
}

/** rotate-key on the SQLite lead database at `dbPath`. */
export async function rotateLeadKey(dbPath: string, options: RotationOptions): Promise<RotationResult> {
  const db = openLeadDatabase(dbPath);
  try {
    return await rotateKeys(sqliteTarget(db, dbPath, options), options);
  } finally {
    db.close();
  }
}
