// Every write to the lead database, as data: a batch of operations runs in one transaction, so one wait for the disk
// makes all of them durable. Runs wherever the writing connection lives (the writer thread, or the caller's thread
// for an in-memory database); the operations and their results are plain values that cross a thread unchanged.
import type Database from 'better-sqlite3';
import type { InsertResult, PreparedLead } from '../contract/lead-store.ts';
import type { ClaimedRow, KeyRow } from '../contract/rows.ts';
import type { ChangeSetRow } from '../shared/change-rows.ts';
import type { OverdueRow } from '../shared/desk.ts';
import { COMMIT_MARGIN_MS, DeadlineError, type Outcome } from '../shared/group-commit.ts';
import { answerForKey, IDEMPOTENCY_TTL_MS } from '../shared/idempotency.ts';
import { BUSY_TIMEOUT_MS } from './schema.ts';

export type WriteOp =
  /** `deadline` (epoch ms): when the visitor stops waiting for this lead; it is not begun after that. */
  | { kind: 'insert'; lead: PreparedLead; deadline?: number }
  | { kind: 'claim'; now: number; limit: number; leaseMs: number }
  | { kind: 'delivered'; leadIds: readonly string[]; at: string }
  | { kind: 'retry'; leadId: string; nextAttemptAt: number; error: string; counted: boolean }
  | { kind: 'dead'; leadId: string; error: string }
  | { kind: 'revive'; now: number }
  /** Deletes up to `limit` leads received before `before` (ISO 8601), with everything that hangs on them. */
  | { kind: 'purge'; before: string; limit: number }
  // The release engine's steady work (server/releases/live-release.ts): the live pointer read every second, the served
  // release reported every few. Here, off the main thread: SQLite's read of a WAL file writes its read mark into the
  // shared memory file, and on a frozen disk that write waits, which must never hold up the event loop that serves.
  | { kind: 'live-release' }
  | { kind: 'report-serving'; instance: string; releaseId: number; at: string }
  | { kind: 'forget-instance'; instance: string }
  // The sweeps every few seconds (alerts/escalation.ts, content-staff/change-scheduler.ts) write, so they are here too:
  // on the main thread's connection, a frozen disk, or a lead commit waiting for it, held the event loop up to the
  // busy timeout (tests/server/store/store-stall.test.ts; store-sweeps.test.ts holds it to that).
  /** Marks up to `limit` unowned leads due by `at`, not escalated since `repeatedBefore`, as escalated at `at`. */
  | { kind: 'take-escalations'; at: string; repeatedBefore: string; limit: number }
  | { kind: 'escalation-failed'; leadId: string }
  /** Takes the earliest due schedule (or one whose lease ran out) with a lease until `now + leaseMs`. */
  | { kind: 'claim-schedule'; now: number; leaseMs: number };

/** What each kind of operation answers. */
export interface WriteResults {
  insert: InsertResult;
  claim: ClaimedRow[];
  delivered: null;
  retry: null;
  dead: null;
  /** How many dead alerts went back to pending. */
  revive: number;
  /** How many leads were deleted. */
  purge: number;
  'live-release': { releaseId: number; generation: number } | null;
  'report-serving': null;
  'forget-instance': null;
  'take-escalations': OverdueRow[];
  'escalation-failed': null;
  'claim-schedule': ChangeSetRow | null;
}

export type OpValue = WriteResults[WriteOp['kind']];
export type OpOutcome = Outcome<OpValue>;

const PURGE_EVERY_MS = 60 * 1000;

// A plain Error, with SQLite's code in its message: an outcome crosses to the main thread by structured clone, which
// keeps a plain Error's message and nothing of better-sqlite3's own error class.
function asError(error: unknown): Error {
  if (!(error instanceof Error)) return new Error(String(error));
  const code = (error as { code?: unknown }).code;
  return new Error(typeof code === 'string' ? `${code}: ${error.message}` : error.message);
}

export const deadlineOf = (op: WriteOp): number | undefined =>
  op.kind === 'insert' ? op.deadline : undefined;
const expired = (op: WriteOp, now: number) => (deadlineOf(op) ?? Infinity) - COMMIT_MARGIN_MS <= now;

// Failures of the database as a whole (locked, full, read-only, a failing disk): trying each write of the batch alone
// would meet the same failure once per write, each after its own wait for the lock.
const STORE_LEVEL = /^SQLITE_(BUSY|LOCKED|FULL|IOERR|READONLY|CANTOPEN|CORRUPT|NOTADB|NOMEM|PROTOCOL|PERM)/;
const storeLevel = (error: unknown): boolean => {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && STORE_LEVEL.test(code);
};

/** Prepares the statements once; the returned function runs one batch and returns one outcome per operation. */
export function createWriteExecutor(db: Database.Database): (ops: readonly WriteOp[]) => OpOutcome[] {
  // data stays '{}': nothing a visitor sent is stored in clear.
  const insertLead = db.prepare(
    `INSERT INTO leads (id, form_id, created_at, source, data, sealed, promised_at, due_at)
     VALUES (?, ?, ?, ?, '{}', ?, ?, ?)`,
  );
  const insertTerm = db.prepare('INSERT OR IGNORE INTO lead_terms (term, lead_id) VALUES (?, ?)');
  const insertAlert = db.prepare(
    "INSERT INTO alerts (lead_id, status, attempts, next_attempt_at, pending_since) VALUES (?, 'pending', 0, ?, ?)",
  );
  const selectKey = db.prepare<[string, string, number], KeyRow>(
    'SELECT lead_id, fingerprint FROM idempotency_keys WHERE form_id = ? AND key = ? AND created_at >= ?',
  );
  // REPLACE: an expired row for the same key may still be there until the next purge.
  const insertKey = db.prepare(
    `INSERT OR REPLACE INTO idempotency_keys (form_id, key, lead_id, created_at, fingerprint)
     VALUES (?, ?, ?, ?, ?)`,
  );
  const purgeKeys = db.prepare('DELETE FROM idempotency_keys WHERE created_at < ?');
  const selectDue = db.prepare<[number, number], ClaimedRow>(
    `SELECT leads.*, alerts.attempts, alerts.pending_since FROM alerts JOIN leads ON leads.id = alerts.lead_id
     WHERE alerts.status = 'pending' AND alerts.next_attempt_at <= ? ORDER BY alerts.next_attempt_at LIMIT ?`,
  );
  const claim = db.prepare(
    'UPDATE alerts SET attempts = attempts + 1, next_attempt_at = ? WHERE lead_id = ?',
  );
  const delivered = db.prepare(
    "UPDATE alerts SET status = 'delivered', delivered_at = ?, last_error = NULL WHERE lead_id = ?",
  );
  // An uncounted retry gives back the attempt its claim counted: the webhook refused it for rate limiting, which says
  // nothing about the alert.
  const retry = db.prepare(
    'UPDATE alerts SET next_attempt_at = ?, last_error = ?, attempts = attempts - ? WHERE lead_id = ?',
  );
  const dead = db.prepare("UPDATE alerts SET status = 'dead', last_error = ? WHERE lead_id = ?");
  const revive = db.prepare(
    "UPDATE alerts SET status = 'pending', attempts = 0, next_attempt_at = ?, pending_since = ? WHERE status = 'dead'",
  );

  // Their alerts, idempotency keys, search terms, status changes and notes go with them (ON DELETE CASCADE);
  // secure_delete zeroes what they occupied.
  const purge = db.prepare(
    'DELETE FROM leads WHERE id IN (SELECT id FROM leads WHERE created_at < ? ORDER BY created_at LIMIT ?)',
  );

  function insert(lead: PreparedLead, now: number): InsertResult {
    if (lead.idempotencyKey !== undefined) {
      const seen = selectKey.get(lead.formId, lead.idempotencyKey, now - IDEMPOTENCY_TTL_MS);
      if (seen) return answerForKey(seen, lead.fingerprints);
    }
    const promisedAt = lead.promisedAt.toISOString();
    insertLead.run(
      lead.id,
      lead.formId,
      lead.createdAt.toISOString(),
      lead.source,
      lead.sealed,
      promisedAt,
      promisedAt,
    );
    for (const term of lead.terms) insertTerm.run(term, lead.id);
    insertAlert.run(lead.id, lead.createdAt.getTime(), lead.createdAt.getTime());
    if (lead.idempotencyKey !== undefined)
      insertKey.run(lead.formId, lead.idempotencyKey, lead.id, now, lead.fingerprints[0] ?? null);
    return { id: lead.id, replayed: false };
  }

  const selectLive = db.prepare<[], { release_id: number; generation: number }>(
    'SELECT release_id, generation FROM live_release WHERE id = 1',
  );
  const upsertInstance = db.prepare<[string, number, string]>(
    `INSERT INTO release_instances (instance, release_id, at) VALUES (?, ?, ?)
     ON CONFLICT (instance) DO UPDATE SET release_id = excluded.release_id, at = excluded.at`,
  );
  const deleteInstance = db.prepare<[string]>('DELETE FROM release_instances WHERE instance = ?');
  const takeOverdue = db.prepare<[string, string, string, number], OverdueRow>(
    `UPDATE leads SET escalated_at = ? WHERE id IN (
       SELECT id FROM leads WHERE due_at IS NOT NULL AND due_at <= ? AND (owner IS NULL OR owner_auto = 1)
         AND (escalated_at IS NULL OR escalated_at <= ?)
       ORDER BY due_at, id LIMIT ?)
     RETURNING id, form_id, due_at, promised_at`,
  );
  const unescalate = db.prepare('UPDATE leads SET escalated_at = NULL WHERE id = ?');
  const dueSchedule = db.prepare<[number, number], ChangeSetRow>(
    `SELECT * FROM change_sets
     WHERE (schedule_state = 'pending' AND schedule_at <= ?) OR (schedule_state = 'running' AND schedule_lease < ?)
     ORDER BY schedule_at LIMIT 1`,
  );
  const leaseSchedule = db.prepare<[number, string], ChangeSetRow>(
    "UPDATE change_sets SET schedule_state = 'running', schedule_lease = ? WHERE id = ? RETURNING *",
  );

  function apply(op: WriteOp, now: number): OpValue {
    switch (op.kind) {
      case 'insert':
        return insert(op.lead, now);
      case 'claim':
        return selectDue.all(op.now, op.limit).map((row) => {
          claim.run(op.now + op.leaseMs, row.id);
          return row;
        });
      case 'delivered':
        for (const leadId of op.leadIds) delivered.run(op.at, leadId);
        return null;
      case 'retry':
        retry.run(Math.round(op.nextAttemptAt), op.error, op.counted ? 0 : 1, op.leadId);
        return null;
      case 'dead':
        dead.run(op.error, op.leadId);
        return null;
      case 'revive':
        return revive.run(op.now, op.now).changes;
      case 'purge':
        return purge.run(op.before, op.limit).changes;
      case 'live-release': {
        const row = selectLive.get();
        return row ? { releaseId: row.release_id, generation: row.generation } : null;
      }
      case 'report-serving':
        upsertInstance.run(op.instance, op.releaseId, op.at);
        return null;
      case 'forget-instance':
        deleteInstance.run(op.instance);
        return null;
      case 'take-escalations':
        return takeOverdue.all(op.at, op.at, op.repeatedBefore, op.limit);
      case 'escalation-failed':
        unescalate.run(op.leadId);
        return null;
      case 'claim-schedule': {
        const due = dueSchedule.get(op.now, op.now);
        return (due && leaseSchedule.get(op.now + op.leaseMs, due.id)) ?? null;
      }
    }
  }

  // Checked again once the lock is held: the wait for it may have taken the write past its deadline.
  const applyOrDrop = (op: WriteOp, now: number): OpOutcome =>
    expired(op, Date.now()) ? { ok: false, error: new DeadlineError() } : { ok: true, value: apply(op, now) };

  let lastPurge = 0;
  const applyAll = db.transaction((ops: readonly WriteOp[], now: number) => {
    if (now - lastPurge > PURGE_EVERY_MS) {
      purgeKeys.run(now - IDEMPOTENCY_TTL_MS);
      lastPurge = now;
    }
    return ops.map((op) => applyOrDrop(op, now));
  });
  const applyAlone = db.transaction(applyOrDrop);

  // The wait for the lock (another process writing) ends before the earliest deadline of the batch; operations without
  // one wait the usual busy timeout.
  let busyTimeout = BUSY_TIMEOUT_MS;
  function waitForLockUntil(ops: readonly WriteOp[], now: number): void {
    const waits = ops.map((op) => {
      const deadline = deadlineOf(op);
      return deadline === undefined ? BUSY_TIMEOUT_MS : deadline - COMMIT_MARGIN_MS - now;
    });
    const wait = Math.round(Math.max(0, Math.min(...waits)));
    if (wait !== busyTimeout) db.pragma(`busy_timeout = ${wait}`);
    busyTimeout = wait;
  }

  const dropped = (): OpOutcome => ({ ok: false, error: new DeadlineError() });
  // IMMEDIATE takes the write lock up front, so a concurrent writer (the CLI) waits instead of failing mid-transaction.
  return (ops) => {
    const now = Date.now();
    if (ops.every((op) => expired(op, now))) return ops.map(dropped);
    waitForLockUntil(ops, now);
    try {
      return applyAll.immediate(ops, now);
    } catch (error) {
      if (ops.length === 1 || storeLevel(error)) return ops.map(() => ({ ok: false, error: asError(error) }));
      // The batch was rolled back whole; one bad operation must not fail the others, so each is tried on its own.
      return ops.map((op) => {
        if (expired(op, Date.now())) return dropped();
        waitForLockUntil([op], Date.now());
        try {
          return applyAlone.immediate(op, now);
        } catch (single) {
          return { ok: false, error: asError(single) };
        }
      });
    }
  };
}
