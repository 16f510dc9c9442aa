// The source pages and status changes a PostgreSQL lead database held in clear before they were sealed: sealed at the
// store's start, in short transactions that lock only their rows (the same step as SQLite's, sqlite/reseal.ts).
import type pg from 'pg';
import type { LeadStatus } from '../contract/inbox.ts';
import { RESEAL_BATCH, sealSource, sealStatusChange, type Sealer } from '../shared/sealing.ts';
import { inBatches } from './pg-rotation.ts';
import { transaction } from './pg-schema.ts';

/** Seals every clear source (it starts with /) and clear status change; returns how many rows changed. */
export async function sealPostgresSourcesAndHistory(
  pool: pg.Pool,
  sealer: Sealer,
  batch = RESEAL_BATCH,
): Promise<number> {
  const sources = await inBatches((after) =>
    transaction(pool, async (db) => {
      const { rows } = await db.query<{ id: string; source: string }>(
        "SELECT id, source FROM leads WHERE id > $1 AND source NOT LIKE 'v_.%' ORDER BY id LIMIT $2 FOR UPDATE",
        [after, batch],
      );
      await db.query(
        `UPDATE leads SET source = v.source FROM unnest($1::text[], $2::text[]) AS v(id, source)
         WHERE leads.id = v.id`,
        [rows.map((row) => row.id), rows.map((row) => sealSource(sealer, row.source, row.id))],
      );
      return { count: rows.length, last: rows.at(-1)?.id };
    }),
  );
  const history = await inBatches((after) =>
    transaction(pool, async (db) => {
      const { rows } = await db.query<{
        id: string;
        lead_id: string;
        from_status: LeadStatus;
        to_status: LeadStatus;
      }>(
        `SELECT id, lead_id, from_status, to_status FROM lead_events
         WHERE id > $1 AND kind = 'status' AND note_sealed IS NULL ORDER BY id LIMIT $2 FOR UPDATE`,
        [after, batch],
      );
      const sealed = rows.map((row) =>
        sealStatusChange(sealer, row.lead_id, row.id, { from: row.from_status, to: row.to_status }),
      );
      await db.query(
        `UPDATE lead_events SET from_status = NULL, to_status = NULL, note_sealed = v.sealed
         FROM unnest($1::text[], $2::text[]) AS v(id, sealed) WHERE lead_events.id = v.id`,
        [rows.map((row) => row.id), sealed],
      );
      return { count: rows.length, last: rows.at(-1)?.id };
    }),
  );
  return sources + history;
}
