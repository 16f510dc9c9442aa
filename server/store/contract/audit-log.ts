// The audit log's contract: who read and changed what, one hash-chained row per act, the same for both stores
// (SQLite and PostgreSQL); the chain's hashing is shared/audit-chain.ts.

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
  | 'export-start'
  | 'export-end'
  | 'refused'
  | 'backup'
  | 'audit-view'
  | 'cli-read'
  | 'rotate-key'
  | 'purge'
  | 'read-limit'
  // Credentials and sessions: an invitation that readmits a revoked member, one cancelled (the revoke's own are in its
  // detail), a passkey removed, a passkey check in a session (or a failed one), a session ended by its member from
  // another, one the server ended for idleness or age (its member the actor: it happened to their session).
  | 'reinstate'
  | 'invite-cancel'
  | 'passkey-removed'
  | 're-authenticate'
  | 're-authenticate-failed'
  | 'session-ended'
  | 'session-timeout'
  // A read the inbox made on its own (a list refreshed after a new lead), by `auto:<email>`: shown on that member's
  // screen, but not their act.
  | 'auto-list'
  | 'auto-view'
  // The admissions desk: "I'm calling" and its release, a lead handed to a member (detail: their e-mail or
  // `unassigned`), a call's outcome (detail: the outcome's code), an admin's change of a member's roles (detail: the
  // e-mail and the roles), an escalation sent to chat (actor `server`).
  | 'claim'
  | 'release'
  | 'assign'
  | 'call-outcome'
  | 'roles'
  | 'escalate'
  // The desk's second part: a lead merged into this one (detail `from=<id>`) and, on the other, `merged-into`
  // (`into=<id>`); an admin's read of the staff list or of a report (detail: which and its range); a member's shift for
  // round robin starting or ending (a round-robin assignment is an `assign` by `round-robin`).
  | 'merge'
  | 'merged-into'
  | 'staff-view'
  | 'report-view'
  | 'shift-start'
  | 'shift-end'
  // The site's releases (server/releases/): a release made live by `npm run content -- publish`, an earlier one made
  // live again, a release the server built at start for new code (actor `server`). The detail names the release ids.
  | 'publish'
  | 'rollback'
  | 'deploy'
  // Change sets (server/content-staff/), each by the member's e-mail with the set's id in the detail: made, a document
  // saved (its path and version), submitted (the kinds it requires), a comment, changes requested (back to draft), an
  // approval (what it covers and the content hash), a publish (the release) or a refused one (why), a schedule set, run
  // or failed (actor: the publisher who set it), preview links made or revoked, and every view of a preview (actor
  // `preview:<link hash prefix>`).
  | 'change-create'
  | 'change-edit'
  | 'change-submit'
  | 'change-comment'
  | 'change-approve'
  | 'change-request-changes'
  | 'change-publish'
  | 'change-publish-failed'
  | 'change-schedule'
  // A pending schedule taken back by a publisher (its set and the time it had).
  | 'change-schedule-cancel'
  | 'change-schedule-failed'
  | 'preview-link'
  | 'preview-revoke'
  | 'preview-view'
  // A page of an earlier release opened in the staff area's history (its release and path).
  | 'release-view';

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
  /**
   * Over prevHash and this row's seq, at, actor, action, leadId and detail: `2.<key id>.<sha>.<hmac>` signed with the
   * audit key (shared/audit-chain.ts); plain SHA-256 (hex) in rows written before 2026-11-27.
   */
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
