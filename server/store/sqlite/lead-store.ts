// Leads and their outgoing chat alerts (an outbox): written together, so a stored lead always has an alert to send.
// Every submitted value is sealed (encrypted), and its search terms hashed, before it leaves this thread; reads open
// them only where asked.
// Writes go through the one writer of the database (lead-writer.ts) and settle once committed; reads are answered at
// once from this thread's own connection, which WAL lets read beside the writer.
import { createSqliteAuditLog } from './audit-log.ts';
import { createSqliteInboxStore } from './inbox-store.ts';
import type { AuditLog, InboxStore } from '../contract/inbox.ts';
import { openLeadDatabase } from './schema.ts';
import type { KeySource } from '../shared/key-file.ts';
import {
  createSealer,
  sealLegacyLeads,
  termsFor,
  unlockDatabase,
  type UnlockOptions,
} from '../shared/sealing.ts';
import { leadListeners, prepareLead } from '../shared/prepare-lead.ts';
import { createLeadWriter } from './single-writer.ts';
import type { InsertResult, LeadRow } from './write-ops.ts';
import { memoryCounters, type RateCounters } from '../shared/memory-counters.ts';
import { sqliteStaffStore, type StaffStore } from './staff-store.ts';
import type { FormDefinition } from '../../../generated/content-types.ts';

export { IDEMPOTENCY_TTL_MS, type InsertResult } from './write-ops.ts';

export type AlertStatus = 'pending' | 'delivered' | 'dead';

const PURGE_BATCH = 500;

/** A submission to store: every one of its `fields` is sealed (encrypted at rest). */
export interface NewLead {
  formId: string;
  /** Site path of the page the form was sent from. */
  source: string;
  fields: Record<string, string>;
  /** The client's Idempotency-Key: the same key for the same form stores one lead. */
  idempotencyKey?: string;
  /**
   * The submission's `fingerprints()` (or its `fingerprint()`), kept with its Idempotency-Key: the same key with
   * another fingerprint is a conflict, not a repeat. The first is stored; a key stored under any of them is a repeat.
   */
  fingerprint?: string | readonly string[];
}

export interface StoredLead {
  id: string;
  formId: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  source: string;
  data: Record<string, string>;
}

export interface ListedLead extends StoredLead {
  alert: AlertStatus;
}

export interface AlertState {
  status: AlertStatus;
  /** Delivery attempts started so far, less those the webhook refused for rate limiting (429 with Retry-After). */
  attempts: number;
  /** Epoch milliseconds since which it has waited: its lead was stored, or `retry-dead` put it back to pending. */
  pendingSince: number;
  /** Epoch milliseconds; meaningful while pending. */
  nextAttemptAt: number;
  lastError: string | null;
  deliveredAt: string | null;
}

/** An alert claimed for delivery, with the attempt it is on (1 for the first). */
export interface DueAlert {
  /**
   * Every value opened (all are sealed at rest): the chat message builder decides which of them, if any, may be shown,
   * and nothing else sends them anywhere.
   */
  lead: StoredLead;
  attempt: number;
  /** See AlertState. */
  pendingSince: number;
}

/** The alerts not delivered, for the health check. */
export interface AlertBacklog {
  pending: number;
  dead: number;
  /** The `pendingSince` of the alert that has waited longest, or undefined when none is pending. */
  oldestPendingSince: number | undefined;
}

/**
 * What the form API, the alert worker and the staff CLI need from a store: one contract for SQLite and PostgreSQL, so
 * every method that reads or writes the database answers through a promise (SQLite's may settle at once).
 */
export interface LeadStore {
  /** Where the encryption key came from, for the start-up log. */
  readonly keySource: KeySource;
  /** Who read and changed what (staff, the CLI, the server's purge). */
  readonly audit: AuditLog;
  /** Leads as the admissions inbox works them: status, notes, search. */
  readonly inbox: InboxStore;
  /** A keyed hash of `text` (a submission in canonical form), to compare submissions without keeping them. */
  fingerprint(text: string): string;
  /** `fingerprint` under every key of the ring, the current key's first: so a repeat across a rotation is one. */
  fingerprints(text: string): string[];
  /**
   * Stores the lead and its pending alert in one transaction (grouped with other writes of the same moment) and
   * resolves once that transaction is committed to disk. Rejects at once when too many writes wait already.
   * `deadline` (epoch ms) is when its visitor stops waiting: a write not yet begun then is dropped, never written, and
   * its promise rejects. One whose commit is under way then may still complete, the lead whole with its alert; its
   * promise settles when it does, so the caller that stopped waiting can still learn of it.
   */
  insertLead(lead: NewLead, options?: { deadline?: number }): Promise<InsertResult>;
  /** The lead with every field, sealed ones opened. */
  getLead(id: string): Promise<StoredLead | undefined>;
  /** Leads created at or after `since` (ISO 8601), oldest first, every field opened, with their alert status. */
  listLeads(options?: { since?: string }): Promise<ListedLead[]>;
  getAlert(leadId: string): Promise<AlertState | undefined>;
  /**
   * Claims up to `limit` pending alerts due at `now`, counting the attempt and hiding them for `leaseMs`: if the
   * process dies mid-delivery they become due again (delivery is at least once; every message carries the lead id).
   */
  claimDueAlerts(options: { now: number; limit: number; leaseMs: number }): Promise<DueAlert[]>;
  /** When the next pending alert is due (epoch ms), or undefined when none is pending. */
  nextAlertDueAt(): Promise<number | undefined>;
  /** Marks the alerts of these leads delivered at `at`, in one write. */
  markDelivered(leadIds: readonly string[], at: Date): Promise<void>;
  /**
   * Puts a claimed alert back to wait until `nextAttemptAt`. `counted: false` gives back the attempt its claim counted
   * (the webhook was rate limiting, which says nothing about this alert).
   */
  scheduleRetry(
    leadId: string,
    nextAttemptAt: number,
    error: string,
    options?: { counted?: boolean },
  ): Promise<void>;
  markDead(leadId: string, error: string): Promise<void>;
  /** Puts every dead alert back to pending with fresh attempts, due now and waiting since now; resolves with how many. */
  retryDeadAlerts(now: number): Promise<number>;
  /**
   * Seals every value still in clear in leads stored by older versions, with their search terms, then rewrites the
   * file so no copy of them stays in it; once per database. Call at start, before the first write. Returns how many
   * leads changed.
   */
  sealLegacyLeads(): Promise<number>;
  /**
   * Deletes the leads received before `cutoff` (ISO 8601) with their alerts, idempotency keys, search terms, status
   * changes and notes, a batch at a time through the writer; audits the count (the audit log itself is kept).
   * Resolves with how many leads went.
   */
  purgeOlderThan(cutoff: string): Promise<number>;
  /** Counts from partial indexes, so as cheap with 100,000 delivered alerts as with none. Throws if the database fails. */
  alertBacklog(): Promise<AlertBacklog>;
  /** Whether the database answers a read now and its writer has not failed since its last commit (health check). */
  isHealthy(): Promise<boolean>;
  /** Commits what is queued, then closes the database. */
  close(): Promise<void>;
  /** The admissions inbox's staff, passkeys and sessions. */
  readonly staff: StaffStore;
  /** Rate limits counted where every instance on this store sees them (memory beside a SQLite file). */
  readonly rateCounters: RateCounters;
}

export interface LeadStoreOptions extends UnlockOptions {
  /**
   * Write in a worker thread (the server: its event loop never waits for the disk), or on this thread (the staff CLI,
   * whose rare writes need no thread). An in-memory database is always written on this thread.
   */
  writerThread?: boolean;
  /** Writes that may wait for a commit (MAX_QUEUED_WRITES by default); more are refused at once. */
  maxQueuedWrites?: number;
  /** The form definitions, which say what search finds a lead by (lead-fields.ts); by field names without them. */
  forms?: ReadonlyMap<string, FormDefinition>;
}

interface AlertRow {
  status: AlertStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  delivered_at: string | null;
  pending_since: number;
}

const toLead = (row: LeadRow, data: Record<string, string>): StoredLead => ({
  id: row.id,
  formId: row.form_id,
  createdAt: row.created_at,
  source: row.source,
  data,
});

/** Opens (creating or migrating) the lead database at `path` and unlocks it; ':memory:' for a throwaway one. */
export function openLeadStore(path: string, options: LeadStoreOptions = {}): LeadStore {
  const db = openLeadDatabase(path);
  let unlocked: ReturnType<typeof unlockDatabase>;
  try {
    unlocked = unlockDatabase(db, path, options);
  } catch (error) {
    db.close();
    throw error;
  }
  const { keyring, keySource } = unlocked;
  const sealer = createSealer(keyring);
  const inThread = path !== ':memory:' && (options.writerThread ?? true);
  const writer = createLeadWriter(path, inThread ? undefined : db, { maxQueued: options.maxQueuedWrites });

  const termsOf = termsFor(sealer, options.forms);
  const audit = createSqliteAuditLog(db);
  const { onLeadStored, tell } = leadListeners();
  const inbox = createSqliteInboxStore({ db, sealer, onLeadStored });

  const selectLead = db.prepare<[string], LeadRow>('SELECT * FROM leads WHERE id = ?');
  const selectListed = db.prepare<[string], LeadRow & { alert: AlertStatus }>(
    `SELECT leads.*, alerts.status AS alert FROM leads JOIN alerts ON alerts.lead_id = leads.id
     WHERE leads.created_at >= ? ORDER BY leads.created_at, leads.id`,
  );
  const selectAlert = db.prepare<[string], AlertRow>('SELECT * FROM alerts WHERE lead_id = ?');
  const selectNextDue = db.prepare<[], { due: number | null }>(
    "SELECT MIN(next_attempt_at) AS due FROM alerts WHERE status = 'pending'",
  );
  const selectBacklog = db.prepare<[], { pending: number; dead: number; oldest: number | null }>(
    `SELECT (SELECT COUNT(*) FROM alerts WHERE status = 'pending') AS pending,
            (SELECT COUNT(*) FROM alerts WHERE status = 'dead') AS dead,
            (SELECT MIN(pending_since) FROM alerts WHERE status = 'pending') AS oldest`,
  );
  const probe = db.prepare('SELECT 1 FROM leads LIMIT 1');

  return {
    keySource,
    audit,
    inbox,
    fingerprint: (text) => sealer.fingerprints(text)[0] ?? '',
    fingerprints: (text) => sealer.fingerprints(text),
    async insertLead(lead, { deadline } = {}) {
      const result = await writer.run({ kind: 'insert', lead: prepareLead(lead, sealer, termsOf), deadline });
      // After the commit, and only for a lead written now: a repeat of an earlier one is no news.
      if (!result.replayed) tell(result.id);
      return result;
    },
    async getLead(id) {
      const row = selectLead.get(id);
      return row && toLead(row, sealer.openAll(row));
    },
    async listLeads({ since } = {}) {
      return selectListed
        .all(since ?? '')
        .map((row) => ({ ...toLead(row, sealer.openAll(row)), alert: row.alert }));
    },
    async getAlert(leadId) {
      const row = selectAlert.get(leadId);
      return (
        row && {
          status: row.status,
          attempts: row.attempts,
          pendingSince: row.pending_since,
          nextAttemptAt: row.next_attempt_at,
          lastError: row.last_error,
          deliveredAt: row.delivered_at,
        }
      );
    },
    async claimDueAlerts({ now, limit, leaseMs }) {
      const rows = await writer.run({ kind: 'claim', now, limit, leaseMs });
      return rows.map((row) => ({
        lead: toLead(row, sealer.openAll(row)),
        attempt: row.attempts + 1,
        pendingSince: row.pending_since,
      }));
    },
    nextAlertDueAt: async () => selectNextDue.get()?.due ?? undefined,
    async markDelivered(leadIds, at) {
      await writer.run({ kind: 'delivered', leadIds, at: at.toISOString() });
    },
    async scheduleRetry(leadId, nextAttemptAt, error, { counted = true } = {}) {
      await writer.run({ kind: 'retry', leadId, nextAttemptAt, error, counted });
    },
    async markDead(leadId, error) {
      await writer.run({ kind: 'dead', leadId, error });
    },
    retryDeadAlerts: (now) => writer.run({ kind: 'revive', now }),
    async purgeOlderThan(cutoff) {
      const before = new Date(cutoff).toISOString();
      let count = 0;
      // Batches: each is one short transaction, so visitors' leads queued meanwhile are not held behind a long one.
      for (;;) {
        const done = await writer.run({ kind: 'purge', before, limit: PURGE_BATCH });
        count += done;
        if (done < PURGE_BATCH) break;
      }
      // An hourly run that found nothing is no act on anyone's data: only purges that deleted are audited.
      if (count > 0) await audit.append({ actor: 'server', action: 'purge', detail: `count=${count}` });
      return count;
    },
    async alertBacklog() {
      const row = selectBacklog.get();
      return {
        pending: row?.pending ?? 0,
        dead: row?.dead ?? 0,
        oldestPendingSince: row?.oldest ?? undefined,
      };
    },
    sealLegacyLeads: async () => sealLegacyLeads(db, sealer, termsOf),
    async isHealthy() {
      try {
        probe.get();
      } catch {
        return false;
      }
      return writer.healthy();
    },
    async close() {
      await writer.close();
      db.close();
    },
    // The key current at open: a rotation signs staff out at the next restart, never mid-session.
    staff: sqliteStaffStore(db, keyring.current().key),
    // One instance per SQLite file: its counts live in its memory, and a restart forgives everyone.
    rateCounters: memoryCounters,
  };
}
