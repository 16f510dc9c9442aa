// The release store's contract: every version of the built site, kept forever, in the same database as the leads
// (SQLite's file, or PostgreSQL), one for each store (sqlite/release-store.ts, postgres/pg-release-store.ts).
// A release is immutable: its files (every byte a visitor can be sent) and the content documents it was built from.
// Each file's bytes are stored once by their SHA-256, shared by every release that holds the same file. Which
// release is live is one row, changed only by compare-and-set; every change of it is an event, never a deletion.
import type { PageReviews } from '../../../renderer/medical-review.ts';

/** A file of a release, by its path in the built site (`index.html`, `index.html.br`, `assets/entry-1a2b.js`). */
export interface ReleaseFileInput {
  path: string;
  bytes: Buffer;
}

/** A content document, by its path in a checkout (`pages/index.json`, `site/site.json`), as UTF-8 text. */
export interface ReleaseDocument {
  path: string;
  text: string;
}

export interface NewRelease {
  files: readonly ReleaseFileInput[];
  documents: readonly ReleaseDocument[];
  /** The code it was built with: `<package version>+<git commit or "nogit">.<build hash>` (see server/releases/). */
  codeVersion: string;
  /** `cli:<os user>`, a staff member's e-mail, or `server` (a code deploy's rebuild). */
  author: string;
  message: string;
  /** The clinical reviews that hold for its pages, by page path: what their "Medically reviewed by" lines say. */
  reviews?: PageReviews;
}

export interface ReleaseSummary {
  /** 1, 2, 3, ... in the order they were stored. */
  id: number;
  /** ISO 8601, UTC: when it was stored. */
  at: string;
  author: string;
  message: string;
  codeVersion: string;
  /** SHA-256 (hex) of its documents (paths and texts, sorted by path): equal for equal content. */
  contentHash: string;
}

/** The live pointer: which release is live, and a counter that grows with each change (compare-and-set). */
export interface LiveRelease {
  releaseId: number;
  /** 1 for the first release made live, +1 at every change. */
  generation: number;
}

export type ReleaseEventKind = 'publish' | 'rollback' | 'deploy';

export interface ReleaseEvent {
  seq: number;
  at: string;
  kind: ReleaseEventKind;
  releaseId: number;
  /** The release live before it, or null for the first. */
  previousId: number | null;
  actor: string;
}

/** An instance's last report of the release it serves. */
export interface InstanceReport {
  instance: string;
  releaseId: number;
  /** ISO 8601, UTC. */
  at: string;
}

export interface ReleaseStore {
  /**
   * Stores a release and resolves with it, never making it live. The file bytes are written first (each by its hash,
   * kept if already there), then the release row with its file list and documents in one transaction: a process killed
   * part way leaves at most unreferenced bytes, never a partial release.
   */
  create(release: NewRelease): Promise<ReleaseSummary>;
  /** Every release, oldest first. */
  list(): Promise<ReleaseSummary[]>;
  get(id: number): Promise<ReleaseSummary | undefined>;
  /** Every file of a release with its bytes, by path. Throws for an unknown id. */
  files(id: number): Promise<Map<string, Buffer>>;
  /** The SHA-256 (hex) of every file of a release, by path, without reading the bytes. Throws for an unknown id. */
  fileHashes(id: number): Promise<Map<string, string>>;
  /** One file of a release, or undefined. */
  file(id: number, path: string): Promise<Buffer | undefined>;
  /**
   * The documents of a release, sorted by path; only those under the folder `under` (`site`: the site-wide ones a
   * server reads at each swap, without a thousand pages). Throws for an unknown id.
   */
  documents(id: number, options?: { under?: string }): Promise<ReleaseDocument[]>;
  /** The clinical reviews a release was rendered with, by page path. Throws for an unknown id. */
  reviews(id: number): Promise<PageReviews>;
  /** The live pointer, or undefined before any release was made live. */
  live(): Promise<LiveRelease | undefined>;
  /**
   * Makes `releaseId` live if the pointer is still at `expectedGeneration` (0: no release live yet), and records the
   * event, in one transaction; on PostgreSQL also NOTIFYs RELEASE_CHANNEL when it commits. Resolves with the new
   * pointer, or undefined when the generation moved (someone else changed it first) or the release does not exist.
   */
  setLive(
    releaseId: number,
    expectedGeneration: number,
    event: { kind: ReleaseEventKind; actor: string },
  ): Promise<LiveRelease | undefined>;
  /** Every change of the live pointer, oldest first. */
  events(): Promise<ReleaseEvent[]>;
  /**
   * Runs `work` while holding the one publish lock of this database, so publishes run one at a time. `onWait` is
   * called once if another holds it (and this call waits). A process killed while holding it releases it: PostgreSQL's
   * advisory lock dies with its connection; SQLite's lock row names a process of this machine, and a dead one's is
   * taken over.
   */
  withPublishLock<T>(work: () => Promise<T>, onWait?: () => void): Promise<T>;
  /**
   * Calls `listener` soon after the live pointer changes (PostgreSQL: LISTEN on RELEASE_CHANNEL, reconnecting after a
   * drop; SQLite: never, the engine polls `live()`). Resolves with a function that stops listening.
   * PostgreSQL also calls it once each time it listens again after a drop, since a change made meanwhile went unheard:
   * a call says "read `live()` now", not that it changed.
   */
  onLiveChange(listener: () => void): Promise<() => Promise<void>>;
  /** Records that `instance` serves `releaseId` now (its heartbeat, every few seconds). */
  reportServing(instance: string, releaseId: number): Promise<void>;
  /** The reports of the instances heard from since `since` (ISO 8601). */
  instances(since: string): Promise<InstanceReport[]>;
  /** Removes an instance's report (it stops cleanly). */
  forgetInstance(instance: string): Promise<void>;
}
