// What the admissions inbox (server/staff/) needs from the lead store: leads as staff work them (status, notes,
// search). One contract for both stores (SQLite and PostgreSQL); every method is asynchronous for that reason, even
// where SQLite answers at once. The audit log of who read and changed what: audit-log.ts.

// The lead statuses, a lead's notes and status changes are the staff API's (contracts/staff-api.ts): what staff see
// is what the store keeps.
import type {
  CallOutcome,
  LeadCall,
  LeadNote,
  LeadStatus,
  StatusChange,
} from '../../../contracts/staff-api.ts';

export { LEAD_STATUSES, STATUS_LABELS, isLeadStatus } from '../../../contracts/staff-api.ts';
export type {
  CallOutcome,
  LeadCall,
  LeadNote,
  LeadStatus,
  StatusChange,
} from '../../../contracts/staff-api.ts';

/** Which leads: every part optional, all parts together. */
export interface InboxFilter {
  status?: LeadStatus;
  /** Any of these statuses (with `status`, both apply). */
  statuses?: readonly LeadStatus[];
  /** Owned by this e-mail; null: owned by no one. */
  owner?: string | null;
  formId?: string;
  /** ISO 8601 instant, inclusive: received at or after. */
  from?: string;
  /** ISO 8601 instant, exclusive: received before. */
  to?: string;
  /**
   * A name (one or more words, each matched whole or by its first three letters or more), a full phone number
   * (10 digits), the last four digits of a phone number, or an e-mail address. Matched through keyed hashes, never
   * against values in clear.
   */
  q?: string;
}

export interface InboxPageQuery extends InboxFilter {
  /**
   * `newest` (the default): newest first. `due`: the "needs action" queue, only leads with something due, soonest due
   * first (the overdue, most overdue first, on top); its cursors are its own.
   */
  order?: 'newest' | 'due';
  /** The `next` of the previous page. */
  before?: string;
  /** 1 to 200. */
  limit: number;
}

/** A lead as the list shows it. */
export interface InboxRow {
  id: string;
  formId: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  status: LeadStatus;
  /** Every submitted value, opened (decrypted), by field name. */
  fields: Record<string, string>;
  /** What is due next (the form's promise, or a callback), ISO 8601; null once nothing is. */
  dueAt: string | null;
  /** When the form's promise fell due: the first due time, kept whatever happens next. */
  promisedAt: string;
  owner: string | null;
  /** The first call that reached the person (or the first status that says they were), or null. */
  firstContactAt: string | null;
  attempts: number;
  /** The lead this one was merged into on request (it is closed, and kept); null when it was not. */
  mergedInto: string | null;
}

/** Another lead of the same person, as the card says it ("also wrote 35 min ago (contacted)"). */
export interface RelatedLead {
  id: string;
  createdAt: string;
  status: LeadStatus;
}

/** A lead as its own page shows it. */
export interface InboxLead extends InboxRow {
  /** Site path of the page the form was sent from. */
  source: string;
  /** Oldest first. */
  notes: LeadNote[];
  /** Oldest first. */
  history: StatusChange[];
  /** Oldest first. */
  calls: LeadCall[];
  /** The leads merged into this one, oldest first. */
  mergedFrom: string[];
}

export interface InboxStore {
  /** Newest first (received time, then id), `limit` at most, and the cursor of the next page or null. */
  list(query: InboxPageQuery): Promise<{ rows: InboxRow[]; next: string | null }>;
  /** Every lead the filter matches, newest first, read a page at a time (the CSV export). */
  all(filter: InboxFilter): AsyncIterable<InboxRow>;
  get(id: string): Promise<InboxLead | undefined>;
  /** The lead after the change; undefined when there is no such lead. Setting the status it has is no change. */
  setStatus(id: string, status: LeadStatus, author: string): Promise<InboxLead | undefined>;
  /** The note as stored (its text sealed at rest like a lead's free text); undefined when there is no such lead. */
  addNote(id: string, text: string, author: string): Promise<LeadNote | undefined>;
  /** Calls `listener` with the id of each lead stored from now on (not a replayed one); returns the unsubscribe. */
  onLeadStored(listener: (id: string) => void): () => void;
  /**
   * "I'm calling": `email` owns the lead unless someone else does. `claimed` also when it was theirs already; `taken`
   * when another member owns it.
   */
  claim(id: string, email: string): Promise<'claimed' | 'taken' | 'missing'>;
  /** Gives the lead up: by its owner, or by anyone when `anyOwner` (an admin). `released` also when no one owned it. */
  release(id: string, email: string, anyOwner: boolean): Promise<'released' | 'not-owner' | 'missing'>;
  /** Sets the owner (or none), whoever owned it; false when there is no such lead. */
  assign(id: string, owner: string | null): Promise<boolean>;
  /**
   * A call made and its outcome: attempts counted, the status set as the outcome says (recorded as a status change
   * by `author`), a callback's time made the new due time. The lead after; undefined when there is no such lead.
   */
  logCall(
    id: string,
    author: string,
    outcome: CallOutcome,
    callbackAt?: string,
  ): Promise<InboxLead | undefined>;
  /**
   * Other leads with the same phone number (its ten digits) or e-mail, found through the keyed search hashes: those
   * still open, or received in the last RELATED_DAYS; newest first, by lead id asked.
   */
  related(ids: readonly string[]): Promise<Map<string, RelatedLead[]>>;
  /**
   * Calls `listener` with the id of each lead changed from now on, by this instance or (PostgreSQL) another: claimed,
   * released, its status, a note, a call. Returns the unsubscribe.
   */
  onLeadChanged(listener: (id: string) => void): () => void;
  /**
   * Takes up to `limit` leads due at or before `now`, owned by no one (or only by round robin's choice, not yet claimed
   * or called by them), and not escalated in the last `repeatMs`,
   * marking them escalated at `now` (so one instance of several sends each). Oldest due first.
   */
  takeEscalations(now: number, repeatMs: number, limit: number): Promise<OverdueLead[]>;
  /** An escalation that could not be sent: the lead is taken again at the next sweep, not after `repeatMs`. */
  escalationFailed(id: string): Promise<void>;
  /**
   * Merges lead `from` into lead `keep`, in one transaction: `from` is closed (a status change by `author`), nothing is
   * due on it any more, and it names `keep` as the lead it was merged into; it is kept, never deleted. `same` when they
   * are one lead; `merged-already` when either was merged into another already.
   */
  merge(
    keep: string,
    from: string,
    author: string,
  ): Promise<'merged' | 'missing' | 'same' | 'merged-already'>;
  /**
   * Round robin: gives the lead, when no one owns it, to the member on shift (staff.on_shift, not revoked, with the
   * admissions role) whose turn is oldest, and makes it their turn (escalated as unowned until they claim or call it); one decision at a time across instances (one
   * transaction holding a lock). The new owner's e-mail, or null when no one is on shift or the lead is owned already.
   */
  assignNext(id: string): Promise<string | null>;
  /**
   * What the speed-to-lead report counts: each lead received in [from, to) (ISO 8601) with its promise and first
   * contact, not merged into another (the kept lead stands for the person). No patient data: times and the form only.
   */
  promises(from: string, to: string): Promise<PromiseRow[]>;
}

/** One lead's promise as the speed-to-lead report reads it. */
export interface PromiseRow {
  formId: string;
  createdAt: string;
  promisedAt: string;
  firstContactAt: string | null;
}

/** A lead past its due time that no one has claimed: what an escalation says of it (no patient data). */
export interface OverdueLead {
  id: string;
  formId: string;
  /** When it fell due: its form's promise, or a callback. */
  dueAt: string;
  /** True when what fell due is a callback (the person was reached once), not the form's first promise. */
  callback: boolean;
}

/** How far back a closed lead still counts as the same person's earlier request. */
export const RELATED_DAYS = 30;
