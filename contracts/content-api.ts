// The content API (/staff/api/content/, answered by server/content-staff/, issue #28): the bodies and answers the
// staff area's editor will exchange with it. Pure TypeScript, only what JSON carries (times as ISO 8601, UTC). Versions
// are opaque: send back the one you were given.

/** The claim kinds a change needs reviewed: `clinical` (a reviewer with a credential), `contact` (an admin), `other`. */
export type ClaimKind = 'clinical' | 'contact' | 'other';
export type ChangeState = 'draft' | 'in_review' | 'published';

/** Where the API is, below STAFF_API_PATH. */
export const CONTENT_API_PATH = '/content/changes';

/** POST /changes: `{ title }` → 201 `{ id }`. */
export interface NewChange {
  title: string;
}
export interface CreatedChange {
  id: string;
}

/** GET /changes/<id>/documents?file=<path>: the set's copy, or the live one (404 with `version` for none). */
export interface ChangeDocumentAnswer {
  /** null: the set deletes it. */
  document: unknown;
  version: string;
}
/** PUT /changes/<id>/documents?file=<path>: `document` null deletes it. 200 `{ version }`. */
export interface SaveDocument {
  document: unknown;
  baseVersion: string;
}
/** 409 of a PUT: the document moved since `baseVersion`; who saved it (or published it live) and when. */
export interface StaleSave {
  error: string;
  changedBy: string | null;
  changedAt: string | null;
  version: string;
}
/** 422 of a PUT: the validator's own problems of the document. */
export interface InvalidDocument {
  /** `code`: the validator's stable problem code (content/validate/problems.ts). */
  errors: { code: string; pointer: string; message: string; suggestion?: string }[];
}

/** POST /changes/<id>/submit. */
export interface Submitted {
  state: 'in_review';
  requires: ClaimKind[];
}
/** POST /changes/<id>/approve (401 when this session's passkey check is older than 5 minutes). */
export interface Approved {
  covers: ClaimKind[];
  contentHash: string;
  missing: ClaimKind[];
}
/** POST /changes/<id>/publish: 200, or 409 with `missing` (approvals) or `conflicts` (fields changed live too). */
export interface PublishedChange {
  release: string;
  live: { on: number; of: number };
}
export interface PublishRefused {
  error: string;
  missing?: ClaimKind[];
  conflicts?: { path: string; pointer: string }[];
  /** A word of the set's documents `npm run check:spelling` would flag: a published one would fail the check. */
  misspellings?: SetMisspelling[];
}

/** A misspelled word in a change set's document, at its field; `message` in the editor's words. */
export interface SetMisspelling {
  path: string;
  pointer: string;
  word: string;
  message: string;
}

/** GET /changes/<id>/spelling: the set's misspellings, which its publish would refuse (asked before submit). */
export interface SetSpelling {
  misspellings: SetMisspelling[];
}

/** GET /changes/<id>. */
export interface ChangeView {
  id: string;
  title: string;
  author: string;
  state: ChangeState;
  baseRelease: number;
  /** The release its publish made, and on how many of the running instances it is live. */
  release: string | null;
  live: { on: number; of: number } | null;
  documents: {
    path: string;
    /** What staff call it: a page's title, the site's documents by what they hold (content/document-titles.ts). */
    title: string;
    version: string;
    created: boolean;
    deleted: boolean;
    /** A page the set deletes, moves or creates, in words: "Deleted, redirected to /x", "New page at /y". */
    summary: string | null;
    updatedBy: string;
    updatedAt: string | null;
  }[];
  requires: ClaimKind[];
  missing: ClaimKind[];
  approvals: { by: string; at: string | null; covers: ClaimKind[]; stale: boolean }[];
  /** Everyone who saved a revision: none of them may approve. */
  editors: string[];
  comments: { by: string; at: string | null; path: string | null; pointer: string | null; text: string }[];
  schedule: {
    at: string | null;
    by: string;
    state: 'pending' | 'running' | 'done' | 'failed';
    error: string | null;
  } | null;
  /** SITE_TIMEZONE (an IANA name): a schedule's time is picked and shown in it, whatever the browser's own zone. */
  timeZone: string;
}

/** POST /changes/<id>/schedule `{ at }` (ISO 8601). */
export interface ScheduleRequest {
  at: string;
}
/** POST /changes/<id>/preview-links `{ hours }` (at most 168) → 201. DELETE revokes them all: `{ revoked }`. */
export interface PreviewLinkRequest {
  hours: number;
}
export interface PreviewLinkAnswer {
  url: string;
  expiresAt: string | null;
}

/** GET /changes/<id>/diff: per document, each field changed, in words, with its claim kind and values as text. */
export interface DocumentDiff {
  path: string;
  created: boolean;
  deleted: boolean;
  /** A page the set deletes, moves or creates, in words (its fields are not listed when deleted or moved). */
  summary: string | null;
  changes: FieldChange[];
}
export interface FieldChange {
  /** For a comment on the field; into the new version, or the old one for a removed value. */
  pointer: string;
  /** The field in the content model's words: "Timeline (block 5) › Items, item 1 › Duration". */
  field: string;
  change: 'changed' | 'added' | 'removed' | 'moved';
  kinds: ClaimKind[];
  /** The value as text; null when there is none on that side. */
  before: string | null;
  after: string | null;
}
/** POST /changes/<id>/request-changes `{ text }` (a reviewer): in review goes back to draft, the text a comment. */
export interface ChangesRequested {
  state: 'draft';
}
/** POST /changes/<id>/comments `{ text, file?, pointer? }` → 201. */
export interface CommentRequest {
  text: string;
  file?: string;
  pointer?: string;
}

/** One version of a page: a release in which its document changed (GET /history?file=<path>, newest first). */
export interface PageVersion {
  release: number;
  at: string;
  publishedBy: string;
  message: string;
  /** False: the page did not exist in that release (deleted, or not yet made). */
  exists: boolean;
  /** The change set it was published from, when it was one. */
  change: { id: string; title: string; author: string } | null;
  reviewers: { by: string; name: string | null; credential: string | null; at: string }[];
  live: boolean;
}
/** GET /history: `pages` (the live release's page documents) without `file`; `versions` with it. */
export interface HistoryAnswer {
  pages: string[];
  versions: PageVersion[];
}
/** POST /history/<release>/restore `{ file }` → 201: the new change set holding that version. */
export interface Restored {
  id: string;
}
/** POST /releases/<release>/rollback → 200 (a publisher; 401 when a passkey check is due). */
export interface RolledBack {
  release: string;
}
