// The change store's contract: content staff's change sets (issue #28; docs/decisions/2026-11-28-change-sets.md), in
// the same database as the leads and releases, one for each store (sqlite/change-store.ts, postgres/pg-change-store.ts).
// A change set names documents of the site's content by path: for each, the text it was based on (the live one at its
// first edit; null for a new document) and its current text (null: deleted), with a version that moves at every save,
// by compare-and-set. Every save is also kept as a revision, never changed. Approvals, comments, a schedule and preview
// links hang off it. What a change may do (roles, four eyes, hashes) is decided by server/content-staff/, not here.
// Times are epoch milliseconds: the caller's clock decides, so tests can move it.
import type { ClaimKind } from '../../../content/claims/keyword.ts';

export type ChangeState = 'draft' | 'in_review' | 'published';

/** Where a scheduled publish stands: waiting for its time, being run (under a lease), done, or failed (why). */
export type ScheduleState = 'pending' | 'running' | 'done' | 'failed';

/** What cancelling a schedule did: removed it, or not, since it was not pending (null: no schedule). */
export type ScheduleCancel = { cancelled: true } | { cancelled: false; state: ScheduleState | null };

export interface ChangeSchedule {
  at: number;
  by: string;
  state: ScheduleState;
  /** Why it failed, in words for staff (never patient data: content only). */
  error: string | null;
}

export interface ChangeSet {
  id: string;
  title: string;
  /** The e-mail of the member who made it. */
  author: string;
  state: ChangeState;
  /** The live release when it was made: its documents are the base of every document first edited then. */
  baseRelease: number;
  /** The claim kinds its documents touched when it was last submitted. */
  requires: ClaimKind[];
  /** The release its publish made, once published. */
  publishedRelease: number | null;
  schedule: ChangeSchedule | null;
  createdAt: number;
  updatedAt: number;
}

export interface ChangeDocument {
  /** `pages/services/medical-detox.json`, `site/site.json`: a path in a release's documents. */
  path: string;
  /** The text it started from: the live release's at its first edit, null for a document the set creates. */
  baseText: string | null;
  /** Its text now; null when the set deletes it. */
  text: string | null;
  /** 1 at the first save, +1 at each. */
  version: number;
  updatedBy: string;
  updatedAt: number;
}

/** One save of one document, kept for ever. */
export interface ChangeRevision {
  path: string;
  version: number;
  by: string;
  at: number;
  text: string | null;
}

export interface ChangeApproval {
  by: string;
  at: number;
  /** SHA-256 (hex) of every document of the set as approved (server/content-staff/change-hash.ts). */
  contentHash: string;
  /** The claim kinds the approver's authority covered when they approved. */
  covers: ClaimKind[];
  /** The approver's display name and credential then (a "Medically reviewed by" line is printed from these). */
  name: string | null;
  credential: string | null;
}

export interface ChangeComment {
  by: string;
  at: number;
  path: string | null;
  pointer: string | null;
  text: string;
}

export interface PreviewLink {
  changeId: string;
  createdAt: number;
  expiresAt: number;
  revokedAt: number | null;
}

/** A heartbeat of the editor: `email` has `path` of set `changeId` open at `at`. */
export interface PresenceBeat {
  changeId: string;
  path: string;
  email: string;
  /** The name shown to the others (the member's display name, or their e-mail). */
  name: string;
  at: number;
}

/** What a save is: the document's new text, and the version the editor started from (null: no copy in the set yet). */
export interface DocumentSave {
  path: string;
  /** Kept only when the set has no copy yet (its first save). */
  baseText: string | null;
  text: string | null;
  expectedVersion: number | null;
  by: string;
  now: number;
}

export type SaveOutcome =
  { saved: true; version: number } | { saved: false; current: ChangeDocument | undefined };

/** Several documents saved together: all, or none (`path`: the first whose version moved, and its copy now). */
export type SaveAllOutcome =
  { saved: true; versions: number[] } | { saved: false; path: string; current: ChangeDocument | undefined };

export interface ChangeStore {
  create(change: {
    id: string;
    title: string;
    author: string;
    baseRelease: number;
    now: number;
  }): Promise<ChangeSet>;
  get(id: string): Promise<ChangeSet | undefined>;
  /** Newest first. */
  list(): Promise<ChangeSet[]>;
  /** The set's documents, by path. */
  documents(id: string): Promise<ChangeDocument[]>;
  /**
   * Saves a document's text if its version is still `expectedVersion` (null: the set holds no copy of it yet), and
   * keeps the save as a revision, in one transaction. Refused (with the copy as it is now) when it moved.
   */
  save(id: string, save: DocumentSave): Promise<SaveOutcome>;
  /**
   * Saves several documents (distinct paths) as `save` does, in one transaction: all of them, each kept as a revision,
   * or none when any one's version moved. A page action (a page moved: two pages and the redirects) is one act.
   */
  saveAll(id: string, saves: readonly DocumentSave[]): Promise<SaveAllOutcome>;
  /** Every save of the set, oldest first. */
  revisions(id: string): Promise<ChangeRevision[]>;
  /**
   * Moves the set from one of `from` to `state`, with the fields given; false when it was in none of them (someone
   * else moved it first) or does not exist.
   */
  setState(
    id: string,
    from: readonly ChangeState[],
    state: ChangeState,
    fields: { requires?: readonly ClaimKind[]; publishedRelease?: number; now: number },
  ): Promise<boolean>;
  approve(id: string, approval: ChangeApproval): Promise<void>;
  /** Oldest first. */
  approvals(id: string): Promise<ChangeApproval[]>;
  comment(id: string, comment: ChangeComment): Promise<void>;
  /** Oldest first. */
  comments(id: string): Promise<ChangeComment[]>;
  /**
   * Sets (or replaces: a new time) the set's scheduled publish, pending; false when its schedule is running now (a
   * publish under way is never reset to pending under the instance running it).
   */
  schedule(id: string, at: number, by: string, now: number): Promise<boolean>;
  /**
   * Removes the set's scheduled publish if it is still pending, or failed (dismissed: the failure stays in the audit
   * log), in one statement (a tick that claims it first wins); otherwise says where it stands: running or done, or
   * null when it has none.
   */
  cancelSchedule(id: string, now: number): Promise<ScheduleCancel>;
  /**
   * Claims one scheduled publish that is due at `now` (pending, or running with its lease run out: an instance that
   * died while running it) for `leaseMs`; undefined when none is. On PostgreSQL two instances never claim the same one
   * (FOR UPDATE SKIP LOCKED), and a claimed one stays theirs until its lease ends.
   */
  claimDueSchedule(now: number, leaseMs: number): Promise<ChangeSet | undefined>;
  /** Ends a claimed scheduled publish: done, or failed with why. */
  finishSchedule(id: string, outcome: { error: string | null }): Promise<void>;
  /** The sets whose scheduled publish failed and that are not published since (by hand), newest first. */
  failedSchedules(): Promise<ChangeSet[]>;
  /**
   * Records a heartbeat (the member's last one on that document replaced), removes every heartbeat of any document
   * older than `withinMs` (the table holds only the last moments), and answers the others seen on the same document of
   * the same set within `withinMs`, most recent first. In the store so that editors on different instances see each
   * other.
   */
  presence(beat: PresenceBeat, withinMs: number): Promise<{ email: string; name: string }[]>;
  /** Keeps a preview link by its token's SHA-256 (hex): the token itself is never stored. */
  addPreviewLink(id: string, tokenHash: string, expiresAt: number, now: number): Promise<void>;
  previewLink(tokenHash: string): Promise<PreviewLink | undefined>;
  /** Revokes every preview link of the set not yet expired nor revoked at `now`; how many. */
  revokePreviewLinks(id: string, now: number): Promise<number>;
}
