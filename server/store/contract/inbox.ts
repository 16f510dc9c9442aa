// What the admissions inbox (server/staff/) needs from the lead store: leads as staff work them (status, notes,
// search), and the audit log of who read and changed what. One contract for every store (SQLite today, PostgreSQL
// later); every method is asynchronous for that reason, even where SQLite answers at once.

/** A lead's place in admissions, in the order staff usually move it. */
export const LEAD_STATUSES = ['new', 'contacted', 'admitted', 'referred', 'not-reached', 'closed'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
  new: 'New',
  contacted: 'Contacted',
  admitted: 'Admitted',
  referred: 'Referred elsewhere',
  'not-reached': 'Not reached',
  closed: 'Closed',
};

export const isLeadStatus = (value: unknown): value is LeadStatus =>
  typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value);

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

export interface LeadNote {
  id: string;
  /** The staff member's e-mail. */
  author: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  text: string;
}

export interface StatusChange {
  author: string;
  at: string;
  from: LeadStatus;
  to: LeadStatus;
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

/** What is audited. Each is written with who did it; `leadId` where one lead is concerned. */
export type AuditAction =
  | 'sign-in'
  | 'sign-in-failed'
  | 'sign-out'
  | 'enrol'
  | 'passkey-added'
  | 'invite'
  | 'revoke'
  | 'list'
  | 'view'
  | 'call'
  | 'status'
  | 'note'
  | 'export'
  | 'audit-view'
  | 'cli-read'
  | 'rotate-key'
  | 'purge';

export interface AuditEntry {
  /** A staff member's e-mail, `cli:<os user>` for the command line, `server` for the server itself. */
  actor: string;
  action: AuditAction;
  leadId?: string;
  /**
   * What else identifies the act, never patient data: a status change as `new -> contacted`, a list's filters with a
   * search written as `q=(search)`, an export's row count, a failed sign-in's reason.
   */
  detail?: string;
}

export interface AuditRow extends Required<Pick<AuditEntry, 'actor' | 'action'>> {
  /** 1, 2, 3, ... with no gap. */
  seq: number;
  /** ISO 8601, UTC. */
  at: string;
  leadId: string | null;
  detail: string | null;
  /** The previous row's `hash` ('' for the first row). */
  prevHash: string;
  /** SHA-256 (hex) over prevHash and this row's seq, at, actor, action, leadId and detail. */
  hash: string;
}

export type AuditVerdict =
  | { ok: true; rows: number }
  /** `seq`: the first row that is missing, altered, or does not follow the row before it. */
  | { ok: false; seq: number; reason: string };

/** Append-only: there is no way to change or remove a row through it. */
export interface AuditLog {
  append(entry: AuditEntry): Promise<AuditRow>;
  /** Newest first. */
  page(query: { before?: number; limit: number }): Promise<{ rows: AuditRow[]; next: number | null }>;
  verify(): Promise<AuditVerdict>;
}
