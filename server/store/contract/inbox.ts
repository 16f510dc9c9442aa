// What the admissions inbox (server/staff/) needs from the lead store: leads as staff work them (status, notes,
// search). One contract for both stores (SQLite and PostgreSQL); every method is asynchronous for that reason, even
// where SQLite answers at once. The audit log of who read and changed what: audit-log.ts.

// The lead statuses, a lead's notes and status changes are the staff API's (contracts/staff-api.ts): what staff see
// is what the store keeps.
import type { LeadNote, LeadStatus, StatusChange } from '../../../contracts/staff-api.ts';

export { LEAD_STATUSES, STATUS_LABELS, isLeadStatus } from '../../../contracts/staff-api.ts';
export type { LeadNote, LeadStatus, StatusChange } from '../../../contracts/staff-api.ts';

/** Which leads: every part optional, all parts together. */
export interface InboxFilter {
  status?: LeadStatus;
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
}

/** A lead as its own page shows it. */
export interface InboxLead extends InboxRow {
  /** Site path of the page the form was sent from. */
  source: string;
  /** Oldest first. */
  notes: LeadNote[];
  /** Oldest first. */
  history: StatusChange[];
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
}
