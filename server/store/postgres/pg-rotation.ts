// rotate-key on PostgreSQL: the rotation's steps (shared/key-rotation.ts) over this store's statements. Running servers
// follow as they do on SQLite: each reads meta current_key_id every second, and a key its ring lacks is read again from
// the key file. Each batch is one short transaction that locks only the rows it reseals, so servers keep storing leads
// beside it; a lead a server sealed with the old key meanwhile is caught by the next pass.
import type pg from 'pg';
import type { LeadRow } from '../contract/rows.ts';
import { rotateKeys, type RotationOptions, type RotationResult } from '../shared/key-rotation.ts';
import { CURRENT_KEY_ID } from '../shared/keyring.ts';
import { eventField, openSource, sealSource, type Sealer, type TermsOf } from '../shared/sealing.ts';
import { auditSigner } from '../shared/audit-keys.ts';
import { createPostgresAuditLog } from './pg-audit-log.ts';
import { unlockPostgres } from './pg-keys.ts';
import { createPool, migrate, transaction, writeMeta } from './pg-schema.ts';

/** Whether a lead holds a value not matching $1 (a clear one, or one sealed under another key). */
const STALE_LEAD =
  "data <> '{}' OR source NOT LIKE $1 OR EXISTS (SELECT 1 FROM jsonb_each_text(leads.sealed::jsonb) AS v WHERE v.value NOT LIKE $1)";

/** Runs `step` on batches of rows after the last one it returned, until it returns none; sums their counts. */
export async function inBatches(
  step: (after: string) => Promise<{ count: number; last?: string }>,
): Promise<number> {
  let changed = 0;
  for (let done = await step(''); done.last !== undefined; done = await step(done.last))
    changed += done.count;
  return changed;
}

function resealLeads(pool: pg.Pool, sealer: Sealer, termsOf: TermsOf, pattern: string, batch: number) {
  return inBatches((after) =>
    transaction(pool, async (db) => {
      const { rows } = await db.query<LeadRow>(
        `SELECT * FROM leads WHERE id > $2 AND (${STALE_LEAD}) ORDER BY id LIMIT $3 FOR UPDATE`,
        [pattern, after, batch],
      );
      const ids = rows.map((row) => row.id);
      const terms: [string, string][] = [];
      const sources = rows.map((row) => sealSource(sealer, openSource(sealer, row), row.id));
      const sealed = rows.map((row) => {
        const values = sealer.openAll(row);
        for (const term of termsOf(row.form_id, values)) terms.push([term, row.id]);
        return JSON.stringify(sealer.sealAll(values, row.id));
      });
      await db.query(
        `UPDATE leads SET data = '{}', sealed = v.sealed, source = v.source
         FROM unnest($1::text[], $2::text[], $3::text[]) AS v(id, sealed, source) WHERE leads.id = v.id`,
        [ids, sealed, sources],
      );
      // The search terms anew, hashed under the new key's index key.
      await db.query('DELETE FROM lead_terms WHERE lead_id = ANY($1::text[])', [ids]);
      await db.query(
        'INSERT INTO lead_terms (term, lead_id) SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING',
        [terms.map(([term]) => term), terms.map(([, id]) => id)],
      );
      return { count: rows.length, last: ids.at(-1) };
    }),
  );
}

function resealNotes(pool: pg.Pool, sealer: Sealer, pattern: string, batch: number) {
  return inBatches((after) =>
    transaction(pool, async (db) => {
      const { rows } = await db.query<{
        id: string;
        lead_id: string;
        kind: 'note' | 'status';
        note_sealed: string;
      }>(
        `SELECT id, lead_id, kind, note_sealed FROM lead_events
         WHERE id > $1 AND note_sealed NOT LIKE $2 ORDER BY id LIMIT $3 FOR UPDATE`,
        [after, pattern, batch],
      );
      const sealed = rows.map((row) => {
        const field = eventField(row);
        return sealer.seal(sealer.open(row.note_sealed, row.lead_id, field), row.lead_id, field);
      });
      await db.query(
        `UPDATE lead_events SET note_sealed = v.sealed FROM unnest($1::text[], $2::text[]) AS v(id, sealed)
         WHERE lead_events.id = v.id`,
        [rows.map((row) => row.id), sealed],
      );
      return { count: rows.length, last: rows.at(-1)?.id };
    }),
  );
}

/** rotate-key on the PostgreSQL lead database at `url` (DATABASE_URL). */
export async function rotatePostgresLeadKey(url: string, options: RotationOptions): Promise<RotationResult> {
  const pool = createPool(url, { max: 2 });
  try {
    await migrate(pool);
    // This process sets the current key itself; it never follows another's.
    const { keyring, keySource } = await unlockPostgres(pool, url, options, () => undefined);
    return await rotateKeys(
      {
        keyring,
        keySource,
        setCurrentKey: (id) => writeMeta(pool, CURRENT_KEY_ID, id),
        reseal: async (sealer, termsOf, pattern, batch) =>
          (await resealLeads(pool, sealer, termsOf, pattern, batch)) +
          (await resealNotes(pool, sealer, pattern, batch)),
        async stale(pattern) {
          const { rows } = await pool.query<{ count: number }>(
            `SELECT (SELECT count(*) FROM leads WHERE ${STALE_LEAD})
                  + (SELECT count(*) FROM lead_events WHERE note_sealed NOT LIKE $1) AS count`,
            [pattern],
          );
          return Number(rows[0]?.count ?? 0);
        },
        // Old row versions hold only values sealed with the retired keys, unreadable without them; autovacuum reclaims
        // them. Backups taken before the rotation still need the old key (docs/DEPLOY.md).
        scrub: async () => undefined,
        audit: (ring) => createPostgresAuditLog(pool, auditSigner(ring, options.auditKey)),
      },
      options,
    );
  } finally {
    await pool.end();
  }
}
