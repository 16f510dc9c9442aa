// The audit log in the SQLite lead database: one row per act, hash-chained (shared/audit-chain.ts). Triggers
// (schema.ts) refuse UPDATE and DELETE on the table; the chain catches whoever drops them first.
import type Database from 'better-sqlite3';
import type { AuditEntry, AuditLog, AuditRow } from '../contract/audit-log.ts';
import type { StoredAuditRow } from '../contract/rows.ts';
import { auditRowOf, nextAuditRow, verifyChain } from '../shared/audit-chain.ts';

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
