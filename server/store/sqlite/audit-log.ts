// The audit log in the lead database: one row per act, each carrying the hash of the row before it, so a row edited
// or deleted afterwards breaks the chain where it was. Triggers (lead-db.ts) refuse UPDATE and DELETE on the table;
// the chain catches whoever drops them first.
import { createHash } from 'node:crypto';
import type Database from 'better-sqlite3';
import type { AuditAction, AuditEntry, AuditLog, AuditRow, AuditVerdict } from '../contract/inbox.ts';

export interface StoredAuditRow {
  seq: number;
  at: string;
  actor: string;
  action: string;
  lead_id: string | null;
  detail: string | null;
  prev_hash: string;
  hash: string;
}

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

export function createSqliteAuditLog(db: Database.Database): AuditLog {
  const last = db.prepare<[], Pick<StoredAuditRow, 'seq' | 'hash'>>(
    'SELECT seq, hash FROM audit ORDER BY seq DESC LIMIT 1',
  );
  const insert = db.prepare(
    `INSERT INTO audit (seq, at, actor, action, lead_id, detail, prev_hash, hash)
     VALUES (@seq, @at, @actor, @action, @leadId, @detail, @prevHash, @hash)`,
  );
  const newest = db.prepare<[number, number], StoredAuditRow>(
    'SELECT * FROM audit WHERE seq < ? ORDER BY seq DESC LIMIT ?',
  );
  const after = db.prepare<[number, number], StoredAuditRow>(
    'SELECT * FROM audit WHERE seq > ? ORDER BY seq LIMIT ?',
  );

  // IMMEDIATE: the server and the CLI both append; the write lock taken up front makes reading the last row and
  // writing the next one a single step for each of them.
  const appendNow = db.transaction((entry: AuditEntry): AuditRow => {
    const row = nextAuditRow(last.get(), entry);
    insert.run(row);
    return row;
  });

  return {
    // Staff acts are rare and small: written on the caller's connection at once, not through the writer thread,
    // whose queue is kept for visitors' leads.
    append: async (entry) => appendNow.immediate(entry),
    async page({ before, limit }) {
      const rows = newest.all(before ?? Number.MAX_SAFE_INTEGER, limit + 1).map(auditRowOf);
      const more = rows.length > limit;
      const shown = rows.slice(0, limit);
      return { rows: shown, next: more ? (shown.at(-1)?.seq ?? null) : null };
    },
    verify: () => verifyChain(async (seq, limit) => after.all(seq, limit).map(auditRowOf)),
  };
}
