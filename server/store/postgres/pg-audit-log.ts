// The audit log in PostgreSQL: the same rows, hash chain and signatures as the SQLite one (sqlite/audit-log.ts). Every
// instance appends to one chain: each append holds a transaction-scoped advisory lock while it reads the last row and
// writes the next, so two instances never give two rows the same predecessor. Triggers refuse UPDATE, DELETE and
// TRUNCATE (pg-schema.ts); the checkpoint of the newest row is the table audit_head, written in the same transaction
// (a file would be each instance's own, and no instance sees every append).
import type pg from 'pg';
import type { AuditLog, AuditRow } from '../contract/audit-log.ts';
import type { StoredAuditRow } from '../contract/rows.ts';
import { auditRowOf, headOf, nextAuditRow, verifyChain, type AuditHead } from '../shared/audit-chain.ts';
import type { AuditSigner } from '../shared/audit-keys.ts';
import { transaction } from './pg-schema.ts';

const AUDIT_LOCK = 0x61756469;

export function createPostgresAuditLog(
  pool: pg.Pool,
  signer: AuditSigner,
  onHead?: (head: { seq: number; hash: string }) => void,
): AuditLog {
  const readHead = async (client: pg.Pool | pg.PoolClient): Promise<AuditHead | undefined> => {
    const { rows } = await client.query<{
      seq: string;
      hash: string;
      key_id: string;
      mac: string;
      broken: string | null;
    }>('SELECT seq, hash, key_id, mac, broken FROM audit_head WHERE id = 1');
    const [row] = rows;
    return (
      row && {
        seq: Number(row.seq),
        hash: row.hash,
        keyId: row.key_id,
        mac: row.mac,
        ...(row.broken !== null && { broken: JSON.parse(row.broken) as AuditHead['broken'] }),
      }
    );
  };
  return {
    append: async (entry) => {
      const row = await transaction(pool, async (client): Promise<AuditRow> => {
        await client.query('SELECT pg_advisory_xact_lock($1)', [AUDIT_LOCK]);
        const { rows } = await client.query<{ seq: number; hash: string }>(
          'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1',
        );
        const previous = rows[0] && { seq: Number(rows[0].seq), hash: rows[0].hash };
        const next = nextAuditRow(previous, entry, signer);
        await client.query(
          `INSERT INTO audit (seq, at, actor, action, lead_id, detail, prev_hash, hash)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          [next.seq, next.at, next.actor, next.action, next.leadId, next.detail, next.prevHash, next.hash],
        );
        const head = headOf(next, previous, await readHead(client), signer);
        await client.query(
          `INSERT INTO audit_head (id, seq, hash, key_id, mac, broken) VALUES (1, $1, $2, $3, $4, $5)
           ON CONFLICT (id) DO UPDATE SET seq = excluded.seq, hash = excluded.hash, key_id = excluded.key_id,
             mac = excluded.mac, broken = excluded.broken`,
          [head.seq, head.hash, head.keyId, head.mac, head.broken ? JSON.stringify(head.broken) : null],
        );
        return next;
      });
      onHead?.({ seq: row.seq, hash: row.hash });
      return row;
    },
    async page({ before, limit }) {
      const { rows } = await pool.query<StoredAuditRow>(
        'SELECT * FROM audit WHERE seq < $1 ORDER BY seq DESC LIMIT $2',
        [before ?? Number.MAX_SAFE_INTEGER, limit + 1],
      );
      const more = rows.length > limit;
      const shown = rows.slice(0, limit).map(auditRowOf);
      return { rows: shown, next: more ? (shown.at(-1)?.seq ?? null) : null };
    },
    verify: async () =>
      verifyChain(
        async (seq, limit) => {
          const { rows } = await pool.query<StoredAuditRow>(
            'SELECT * FROM audit WHERE seq > $1 ORDER BY seq LIMIT $2',
            [seq, limit],
          );
          return rows.map(auditRowOf);
        },
        signer,
        await readHead(pool),
      ),
  };
}
