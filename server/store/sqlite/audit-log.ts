// The audit log in the SQLite lead database: one row per act, hash-chained and signed (shared/audit-chain.ts). Triggers
// (schema.ts) refuse UPDATE and DELETE on the table; the chain catches whoever drops them first, and the checkpoint
// file beside the database (`<LEADS_DB>.audit-head`, mode 0600) whoever cuts the chain's end.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import type Database from 'better-sqlite3';
import type { AuditEntry, AuditLog, AuditRow } from '../contract/audit-log.ts';
import type { StoredAuditRow } from '../contract/rows.ts';
import { auditRowOf, headOf, nextAuditRow, verifyChain, type AuditHead } from '../shared/audit-chain.ts';
import type { AuditSigner } from '../shared/audit-keys.ts';

export interface AuditLogOptions {
  signer: AuditSigner;
  /** The checkpoint file; undefined for an in-memory database, whose checkpoint lives in memory. */
  headFile: string | undefined;
  /** Told the newest (seq, hash) after each append: the server writes it to its log. */
  onHead?: (head: { seq: number; hash: string }) => void;
}

export const auditHeadFileOf = (dbPath: string): string | undefined =>
  dbPath === ':memory:' ? undefined : `${dbPath}.audit-head`;

/** The checkpoint file, read; undefined when there is none (a log from before checkpoints). */
function readHeadFile(file: string): AuditHead | undefined {
  if (!existsSync(file)) return undefined;
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as AuditHead;
  } catch {
    return { seq: 0, hash: '', keyId: '', mac: '' };
  }
}

export function createSqliteAuditLog(db: Database.Database, options: AuditLogOptions): AuditLog {
  const { signer, headFile, onHead } = options;
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
  let memoryHead: AuditHead | undefined;
  const readHead = () => (headFile === undefined ? memoryHead : readHeadFile(headFile));

  const writeHead = (head: AuditHead) => {
    if (headFile === undefined) {
      memoryHead = head;
      return;
    }
    // Written whole, then renamed over the old one: a reader never sees half a checkpoint.
    const temporary = `${headFile}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(head)}\n`, { mode: 0o600 });
    renameSync(temporary, headFile);
  };

  // IMMEDIATE: the server and the CLI both append; the write lock taken up front makes reading the last row, writing
  // the next one and its checkpoint a single step for each of them.
  const appendNow = db.transaction((entry: AuditEntry): AuditRow => {
    const previous = last.get();
    const row = nextAuditRow(previous, entry, signer);
    insert.run(row);
    writeHead(headOf(row, previous, readHead(), signer));
    return row;
  });

  return {
    // Staff acts are rare and small: written on the caller's connection at once, not through the writer thread,
    // whose queue is kept for visitors' leads.
    append: async (entry) => {
      const row = appendNow.immediate(entry);
      onHead?.({ seq: row.seq, hash: row.hash });
      return row;
    },
    async page({ before, limit }) {
      const rows = newest.all(before ?? Number.MAX_SAFE_INTEGER, limit + 1).map(auditRowOf);
      const more = rows.length > limit;
      const shown = rows.slice(0, limit);
      return { rows: shown, next: more ? (shown.at(-1)?.seq ?? null) : null };
    },
    verify: () =>
      verifyChain(async (seq, limit) => after.all(seq, limit).map(auditRowOf), signer, readHead()),
  };
}
