// The desk's second part on PostgreSQL: the SQLite store's merge, round robin and report rows (sqlite/desk-merge.ts) in
// PostgreSQL's words. Round robin decides under a transaction-scoped advisory lock: of several instances taking new
// leads at once, each decision sees the turn the one before it took, so on-shift members take turns fairly.
import type pg from 'pg';
import type { InboxStore, LeadStatus, PromiseRow } from '../contract/inbox.ts';
import { leadId as newId } from '../shared/lead-id.ts';
import { sealStatusChange, type Sealer } from '../shared/sealing.ts';
import { transaction, type Queryable } from './pg-schema.ts';

/** The advisory lock key of the rotation (any constant apart from the others; this one spells "rrobin"). */
const ROUND_ROBIN_LOCK = 0x72726f62696e;

export function postgresDeskMerge(
  pool: pg.Pool,
  sealer: Sealer,
  changed: (id: string) => Promise<void>,
): Pick<InboxStore, 'merge' | 'assignNext' | 'promises'> & {
  mergedFrom: (db: Queryable, id: string) => Promise<string[]>;
} {
  return {
    async merge(keep, from, author) {
      if (keep === from) return 'same';
      const outcome = await transaction(pool, async (client) => {
        // Both rows locked, in id order: two merges of the same pair, either way round, never deadlock.
        const { rows } = await client.query<{ id: string; status: LeadStatus; merged_into: string | null }>(
          'SELECT id, status, merged_into FROM leads WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE',
          [[keep, from]],
        );
        const other = rows.find((row) => row.id === from);
        if (rows.length !== 2 || !other) return 'missing' as const;
        if (rows.some((row) => row.merged_into !== null)) return 'merged-already' as const;
        await client.query(
          "UPDATE leads SET status = 'closed', due_at = NULL, merged_into = $1 WHERE id = $2",
          [keep, from],
        );
        if (other.status !== 'closed') {
          const eventId = newId();
          await client.query(
            `INSERT INTO lead_events (id, lead_id, at, author, kind, from_status, to_status, note_sealed)
             VALUES ($1, $2, $3, $4, 'status', NULL, NULL, $5)`,
            [
              eventId,
              from,
              new Date().toISOString(),
              author,
              sealStatusChange(sealer, from, eventId, { from: other.status, to: 'closed' }),
            ],
          );
        }
        return 'merged' as const;
      });
      if (outcome === 'merged') {
        await changed(from);
        await changed(keep);
      }
      return outcome;
    },
    async assignNext(id) {
      const owner = await transaction(pool, async (client) => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [ROUND_ROBIN_LOCK]);
        const lead = await client.query<{ owner: string | null }>(
          'SELECT owner FROM leads WHERE id = $1 FOR UPDATE',
          [id],
        );
        if (!lead.rows[0] || lead.rows[0].owner !== null) return null;
        const { rows } = await client.query<{ id: string; email: string }>(
          `SELECT id, email FROM staff WHERE on_shift = 1 AND revoked_at IS NULL
             AND roles::jsonb @> '["admissions"]'::jsonb
           ORDER BY turn, email LIMIT 1`,
        );
        const member = rows[0];
        if (!member) return null;
        await client.query('UPDATE staff SET turn = (SELECT max(turn) FROM staff) + 1 WHERE id = $1', [
          member.id,
        ]);
        await client.query('UPDATE leads SET owner = $1, owner_auto = 1 WHERE id = $2', [member.email, id]);
        return member.email;
      });
      if (owner !== null) await changed(id);
      return owner;
    },
    async promises(from, to) {
      const { rows } = await pool.query<PromiseRow>(
        `SELECT form_id AS "formId", created_at AS "createdAt", coalesce(promised_at, created_at) AS "promisedAt",
           first_contact_at AS "firstContactAt"
         FROM leads WHERE created_at >= $1 AND created_at < $2 AND merged_into IS NULL ORDER BY created_at`,
        [from, to],
      );
      return rows;
    },
    async mergedFrom(db, id) {
      const { rows } = await db.query<{ id: string }>(
        'SELECT id FROM leads WHERE merged_into = $1 ORDER BY created_at, id',
        [id],
      );
      return rows.map((row) => row.id);
    },
  };
}
