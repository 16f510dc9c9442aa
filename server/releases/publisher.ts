// Putting a release live: a publish (content built with the code in dist/ into a new release) and a rollback (an
// earlier release made live again), one at a time under the store's publish lock. The pointer moves by
// compare-and-set with the event recorded beside it, and each move is a row of the hash-chained audit log. Every
// running instance follows the pointer (live-release.ts); the caller learns how many confirmed within the wait.
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { ReleaseEventKind, ReleaseStore, ReleaseSummary } from '../store/contract/release-store.ts';
import type { ReleaseDocument } from '../store/contract/release-store.ts';
import { buildRelease } from './build-release.ts';
import { codeVersionOf } from './code-version.ts';
import { HEARTBEAT_MS } from './live-release.ts';
import { carriedReviews } from './reviews.ts';
import type { PageReviews } from '../../renderer/medical-review.ts';

/** An instance heard from within this long is running (five missed heartbeats are a stopped one). */
export const RUNNING_WITHIN_MS = 5 * HEARTBEAT_MS;
/** How long a publish or rollback waits for every running instance to confirm. */
export const CONFIRM_WITHIN_MS = 15_000;

type Store = { releases: ReleaseStore; audit: AuditLog };

export class ReleaseError extends Error {}

/** Moves the live pointer to `releaseId` and audits it. Call with the publish lock held. */
export async function makeLive(
  store: Store,
  releaseId: number,
  event: { kind: ReleaseEventKind; actor: string },
): Promise<void> {
  const before = await store.releases.live();
  const moved = await store.releases.setLive(releaseId, before?.generation ?? 0, event);
  if (!moved)
    throw new ReleaseError(`The live release changed while release ${releaseId} was being put live`);
  await store.audit.append({
    actor: event.actor,
    action: event.kind,
    detail: `release ${before?.releaseId ?? '-'} -> ${releaseId}`,
  });
}

/** The release with the id `text`, or a ReleaseError that names the ids there are. */
export async function knownRelease(releases: ReleaseStore, text: string): Promise<ReleaseSummary> {
  const release = /^\d+$/.test(text) ? await releases.get(Number(text)) : undefined;
  if (release) return release;
  const ids = (await releases.list()).map((known) => known.id);
  throw new ReleaseError(`There is no release ${text}. Releases: ${ids.length ? ids.join(', ') : '(none)'}`);
}

export interface Confirmation {
  release: number;
  /** Running instances serving it. */
  confirmed: number;
  /** Instances running (heard from within RUNNING_WITHIN_MS). */
  running: number;
}

/** Waits until every running instance serves `releaseId`, or `withinMs` passed; says how many do. */
export async function waitForInstances(
  releases: ReleaseStore,
  releaseId: number,
  { withinMs = CONFIRM_WITHIN_MS, now = Date.now } = {},
): Promise<Confirmation> {
  const deadline = now() + withinMs;
  for (;;) {
    const reports = await releases.instances(new Date(now() - RUNNING_WITHIN_MS).toISOString());
    const confirmed = reports.filter((report) => report.releaseId === releaseId).length;
    if (confirmed === reports.length || now() >= deadline)
      return { release: releaseId, confirmed, running: reports.length };
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

export interface PublishOptions {
  /** The built code (dist/) whose render bundle renders the pages. */
  codeDir: string;
  /**
   * The documents, or a function that gives them with the publish lock held: a change set rebases onto the live
   * release there, so no other publish moves it between the rebase and the build (server/content-staff/).
   */
  documents: readonly ReleaseDocument[] | (() => Promise<readonly ReleaseDocument[]>);
  author: string;
  message: string;
  /**
   * Clinical reviews this publish gives, by page path: from the approval of the content published (a change set's).
   * The live release's reviews are carried over for every page whose clinical fields did not change (reviews.ts). A
   * function is called after `documents`' (a change set's reviews depend on its rebase under the lock).
   */
  reviews?: PageReviews | (() => PageReviews);
  /** Called once if another publish holds the lock. */
  onWait?: () => void;
  /** Called with the lock held, as the build starts. */
  onBuild?: () => void;
}

/** Builds `documents` into a new release and makes it live. Resolves with it, before instances confirm. */
export async function publish(store: Store, options: PublishOptions): Promise<ReleaseSummary> {
  return store.releases.withPublishLock(async () => {
    const documents = typeof options.documents === 'function' ? await options.documents() : options.documents;
    options.onBuild?.();
    const live = await store.releases.live();
    const reviews = {
      ...(live &&
        carriedReviews(
          await store.releases.documents(live.releaseId),
          await store.releases.reviews(live.releaseId),
          documents,
        )),
      ...(typeof options.reviews === 'function' ? options.reviews() : options.reviews),
    };
    let files;
    try {
      files = await buildRelease(options.codeDir, documents, reviews);
    } catch (error) {
      throw new ReleaseError(
        `Building the site failed, so nothing was stored: ${error instanceof Error ? error.message : String(error)}`,
        { cause: error },
      );
    }
    const release = await store.releases.create({
      files,
      documents,
      reviews,
      codeVersion: codeVersionOf(options.codeDir),
      author: options.author,
      message: options.message,
    });
    await makeLive(store, release.id, { kind: 'publish', actor: options.author });
    return release;
  }, options.onWait);
}

/** Makes the earlier release `releaseId` live again. Throws a ReleaseError naming the ids for an unknown one. */
export async function rollback(
  store: Store,
  releaseId: number,
  { actor, onWait }: { actor: string; onWait?: () => void },
): Promise<ReleaseSummary> {
  return store.releases.withPublishLock(async () => {
    const release = await knownRelease(store.releases, String(releaseId));
    await makeLive(store, releaseId, { kind: 'rollback', actor });
    return release;
  }, onWait);
}
