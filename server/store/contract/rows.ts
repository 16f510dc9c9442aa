// Rows as both databases hold them (SQLite and PostgreSQL keep the same columns under the same names), read and
// written by both stores and by the dialect-free code in shared/.
import type { LeadStatus } from './inbox.ts';

/** A lead as stored: `data` its values in clear (older versions only: '{}' now), `sealed` its sealed ones, both JSON. */
export interface LeadRow {
  id: string;
  form_id: string;
  created_at: string;
  source: string;
  data: string;
  sealed: string;
}

/** A lead with its pending alert, as a claim reads it. */
export type ClaimedRow = LeadRow & { attempts: number; pending_since: number };

export type StatusRow = LeadRow & {
  status: LeadStatus;
  promised_at: string | null;
  due_at: string | null;
  owner: string | null;
  first_contact_at: string | null;
  attempts: number;
  escalated_at: string | null;
  /** The lead this one was merged into (null: not merged). */
  merged_into: string | null;
};

/** A call of a lead (lead_calls). */
export interface CallRow {
  id: string;
  lead_id: string;
  at: string;
  author: string;
  outcome: string;
  callback_at: string | null;
}

/** A status change or a note of a lead. */
export interface EventRow {
  id: string;
  at: string;
  author: string;
  kind: 'status' | 'note';
  from_status: LeadStatus | null;
  to_status: LeadStatus | null;
  note_sealed: string | null;
}

/** A stored idempotency key, as both databases keep it. */
export interface KeyRow {
  lead_id: string;
  fingerprint: string | null;
}

/** A row of the audit table (contract/audit-log.ts's AuditRow, as stored). */
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

/** Staff rows: times are epoch milliseconds, `admin` 0 or 1. */
export interface MemberRow {
  id: string;
  email: string;
  admin: number;
  /** JSON list of role names (`admin` is 1 exactly when it holds 'admin'). */
  roles: string;
  /** How the member is named on the site (a review line): null when not given. */
  display_name: string | null;
  /** A clinical credential ("MD, Addiction Medicine"); a reviewer approves clinical claims only with one. */
  credential: string | null;
  created_at: number;
  revoked_at: number | null;
  /** 1: on shift (round robin); absent in rows read before its schema step. */
  on_shift?: number;
}

export interface PasskeyRow {
  id: string;
  staff_id: string;
  public_key: Buffer;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
  name: string | null;
}

/** An invitation: `cancel_reason` says who cancelled it (an admin, or the revoke of its member). */
export interface InviteRow {
  token_hash: string;
  email: string;
  admin: number;
  roles: string;
  /** The profile the enrolment gives a new member (MemberRow's columns of the same names). */
  display_name: string | null;
  credential: string | null;
  created_at: number;
  expires_at: number;
  used_at: number | null;
  cancelled_at: number | null;
  cancel_reason: 'cancelled' | 'revoked' | null;
}

/** A session; `id_hash` (the SHA-256 of the cookie's id) doubles as its public handle. */
export interface SessionRow {
  id_hash: string;
  staff_id: string;
  created_at: number;
  last_seen_at: number;
  verified_at: number | null;
  device: string | null;
}

/** A release as both stores hold it (contract/release-store.ts). */
export interface ReleaseRow {
  id: number;
  at: string;
  author: string;
  message: string;
  code_version: string;
  content_hash: string;
  /** JSON: PageReviews (renderer/medical-review.ts). */
  reviews: string;
}

/** A change of the live release as both stores hold it. */
export interface ReleaseEventRow {
  seq: number;
  at: string;
  kind: 'publish' | 'rollback' | 'deploy';
  release_id: number;
  previous_id: number | null;
  actor: string;
}
