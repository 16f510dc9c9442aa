// The audit log's chain, the same in both stores: each row carries the hash of the row before it, so a row edited or
// deleted afterwards breaks the chain where it was.
import { createHash } from 'node:crypto';
import type { AuditAction, AuditEntry, AuditRow, AuditVerdict } from '../contract/audit-log.ts';
import type { StoredAuditRow } from '../contract/rows.ts';

type Hashed = Pick<AuditRow, 'prevHash' | 'seq' | 'at' | 'actor' | 'action' | 'leadId' | 'detail'>;

/** SHA-256 (hex) of the row as a JSON array: one canonical text, whatever the values hold. */
export const auditHash = (row: Hashed): string =>
  createHash('sha256')
    .update(JSON.stringify([row.prevHash, row.seq, row.at, row.actor, row.action, row.leadId, row.detail]))
    .digest('hex');

/** The row that follows `previous` (the chain's last row; undefined for the first), hashed: every store's append. */
export function nextAuditRow(
  previous: Pick<StoredAuditRow, 'seq' | 'hash'> | undefined,
  entry: AuditEntry,
): AuditRow {
  const hashed: Hashed = {
    prevHash: previous?.hash ?? '',
    seq: (previous?.seq ?? 0) + 1,
    at: new Date().toISOString(),
    actor: entry.actor,
    action: entry.action,
    leadId: entry.leadId ?? null,
    detail: entry.detail ?? null,
  };
  return { ...hashed, hash: auditHash(hashed) };
}

export const auditRowOf = (row: StoredAuditRow): AuditRow => ({
  seq: row.seq,
  at: row.at,
  actor: row.actor,
  // Written only through append(), which takes an AuditAction.
  action: row.action as AuditAction,
  leadId: row.lead_id,
  detail: row.detail,
  prevHash: row.prev_hash,
  hash: row.hash,
});

const VERIFY_PAGE = 1000;

/** Walks the chain from its first row, `rowsAfter` reading it a page at a time (every store's audit log). */
export async function verifyChain(
  rowsAfter: (seq: number, limit: number) => Promise<AuditRow[]>,
): Promise<AuditVerdict> {
  let prev = { seq: 0, hash: '' };
  let count = 0;
  for (;;) {
    const rows = await rowsAfter(prev.seq, VERIFY_PAGE);
    for (const row of rows) {
      if (row.seq !== prev.seq + 1)
        return { ok: false, seq: prev.seq + 1, reason: `row ${prev.seq + 1} is missing` };
      if (row.prevHash !== prev.hash)
        return { ok: false, seq: row.seq, reason: `row ${row.seq} does not follow the row before it` };
      if (auditHash(row) !== row.hash)
        return { ok: false, seq: row.seq, reason: `row ${row.seq} was altered` };
      prev = row;
      count += 1;
    }
    if (rows.length < VERIFY_PAGE) return { ok: true, rows: count };
  }
}
