// The lead store's contract: what the form API, the alert worker, the staff inbox and the CLI need from a store, one
// for SQLite (sqlite/lead-store.ts) and PostgreSQL (postgres/pg-lead-store.ts). Leads and their outgoing chat alerts
// (an outbox) are written together, so a stored lead always has an alert to send.
import type { ChangeStore } from './change-store.ts';
import type { FormDefinition } from '../../../generated/content-types.ts';
import type { AuditLog } from './audit-log.ts';
import type { InboxStore } from './inbox.ts';
import type { KeySource, UnlockOptions } from './keys.ts';
import type { RateCounters } from './rate-counters.ts';
import type { ReleaseStore } from './release-store.ts';
import type { StaffStore } from './staff-store.ts';

export type AlertStatus = 'pending' | 'delivered' | 'dead';

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
   * Seals every value still in clear in leads stored by older versions, with their search terms, and their source pages
   * and status changes, then rewrites the file so no copy of them stays in it. Call at start, before the first write.
   * Returns how many leads and status changes changed.
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
  /** Every release of the built site, the live pointer and the publish lock, in the same database (release-store.ts). */
  readonly releases: ReleaseStore;
  /** Content staff's change sets, their revisions, approvals, schedules and preview links (change-store.ts). */
  readonly changes: ChangeStore;
}

/** A lead ready to write: id chosen and sensitive values sealed before the batch, so the commit does only SQL. */
export interface PreparedLead {
  id: string;
  formId: string;
  createdAt: Date;
  /** The page it was sent from, sealed (shared/sealing.ts, SOURCE_FIELD). */
  source: string;
  /** JSON of the sealed fields: every submitted value. */
  sealed: string;
  /** The lead's search terms, hashed (shared/search-terms.ts). */
  terms: string[];
  /** When its form's promise falls due (core/promise.ts): the inbox's first due time. */
  promisedAt: Date;
  idempotencyKey: string | undefined;
  /** The submission's fingerprints (LeadStore.fingerprints): the first is kept with its key, any one is a repeat. */
  fingerprints: string[];
}

export interface InsertResult {
  id: string;
  /** True when the key was seen before: `id` is the lead stored then, and nothing new was written. */
  replayed: boolean;
  /**
   * True when the key was seen before with another fingerprint: nothing was written, and `id` (the other lead's) must
   * not be told to the sender.
   */
  conflict?: true;
}

/** What opening either store takes besides where its database is. */
export interface StoreOptions extends UnlockOptions {
  /** Writes that may wait for a commit (MAX_QUEUED_WRITES by default); more are refused at once. */
  maxQueuedWrites?: number;
  /** The form definitions, which say what search finds a lead by (shared/lead-fields.ts); by field names without them. */
  forms?: ReadonlyMap<string, FormDefinition>;
  /** AUDIT_KEY: the keys the audit chain is signed with (the first signs); without it, keys derived from the lead keys. */
  auditKey?: readonly Buffer[];
  /** Told the audit log's newest (seq, hash) after each append, to anchor it outside the database (the server's log). */
  onAuditHead?: (head: { seq: number; hash: string }) => void;
}
