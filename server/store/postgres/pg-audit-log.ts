// The audit log in PostgreSQL: the same rows and hash chain as the SQLite one (sqlite/audit-log.ts). Every instance appends to
// one chain: each append holds a transaction-scoped advisory lock while it reads the last row and writes the next, so
// two instances never give two rows the same predecessor. A trigger refuses UPDATE and DELETE (pg-schema.ts).
import type pg from 'pg';
import type { AuditLog, AuditRow } from '../contract/audit-log.ts';
import type { StoredAuditRow } from '../contract/rows.ts';
import { auditRowOf, nextAuditRow, verifyChain } from '../shared/audit-chain.ts';
import { transaction } from './pg-schema.ts';

const AUDIT_LOCK = 0x61756469;

export function createPostgresAuditLog(pool: pg.Pool): AuditLog {
  return {
    append: (entry) =>
      transaction(pool, async (client): Promise<AuditRow> => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
        const { rows } = await client.query<{ seq: number; hash: string }>(
          'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1',
        );
        const row = nextAuditRow(rows[0], entry);
        await client.query(
          `INSERT INTO audit (seq, at, actor, action, lead_id, detail, prev_hash, hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [row.seq, row.at, row.actor, row.action, row.leadId, row.detail, row.prevHash, row.hash],
        );
        return row;
      }),
    async page({ before, limit }) {
      const { rows } = await pool.query<StoredAuditRow>(
        'SELECT * FROM audit WHERE seq < $1 ORDER BY seq DESC LIMIT $2',
        [before ?? Number.MAX_SAFE_INTEGER, limit + 1],
      );
      const more = rows.length > limit;
      const shown = rows.slice(0, limit).map(auditRowOf);
      return { rows: shown, next: more ? (shown.at(-1)?.seq ?? null) : null };
    },
    verify: () =>
      verifyChain(async (seq, limit) => {
        const { rows } = await pool.query<StoredAuditRow>(
          'SELECT * FROM audit WHERE seq > $1 ORDER BY seq LIMIT $2',
          [seq, limit],
        );
        return rows.map(auditRowOf);
      }),
  };
}
