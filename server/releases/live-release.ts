// The server's side of releases: it serves the live release from memory and follows the live pointer. A release put
// live anywhere (`npm run content -- publish` or `rollback`, another instance's code deploy) is read and prepared off
// the request path (every answer's bytes and headers computed), then put live here by replacing one reference, so
// every response comes whole from one release. The pointer is read every POLL_MS and, on PostgreSQL, at once on its
// NOTIFY; a dropped LISTEN connection costs at most a poll. The hashed assets of the releases before stay answered for
// KEEP_ASSETS_MS, so a page already open can still hydrate and navigate. Every HEARTBEAT_MS the instance reports the
// release it serves, which is how a publish counts the instances that confirmed it.
import { hostname } from 'node:os';
import { randomBytes } from 'node:crypto';
import type { ReleaseHealth } from '../http/health-check.ts';
import type { ServedSite, SiteSource } from '../http/served-site.ts';
import { prepareStaticSite, type StaticFile } from '../http/static-pages.ts';
import { serverContentOf, type ServerContent } from '../content.ts';
import type { Logger } from '../logger.ts';
import type { LiveRelease, ReleaseStore } from '../store/contract/release-store.ts';
import { documentMap } from './documents.ts';

export const POLL_MS = 1000;
export const HEARTBEAT_MS = 2000;
export const KEEP_ASSETS_MS = 60 * 60 * 1000;

export interface LiveReleaseOptions {
  releases: ReleaseStore;
  logger: Logger;
  /** Told the server's content (site, forms, old addresses) of each release put live, the first included. */
  onContent?: (content: ServerContent, release: number) => void;
  /** This instance's name in the reports; `<host>:<pid>:<random>` by default. */
  instance?: string;
  pollMs?: number;
  heartbeatMs?: number;
  keepAssetsMs?: number;
  now?: () => number;
}

export interface LiveReleaseHandle extends SiteSource {
  readonly instance: string;
  /** The release served and the live one, for /healthz. */
  health(): ReleaseHealth;
  /** Reads the live pointer now and takes a new release if there is one (also what the poll and NOTIFY do). */
  follow(): Promise<void>;
  /** Stops following and removes this instance's report. */
  stop(): Promise<void>;
}

/**
 * Serves the live release (which must exist: ensureLiveRelease) and follows the pointer. Resolves once the live
 * release is in memory.
 */
export async function startLiveRelease(options: LiveReleaseOptions): Promise<LiveReleaseHandle> {
  const { releases, logger } = options;
  const now = options.now ?? Date.now;
  const keepMs = options.keepAssetsMs ?? KEEP_ASSETS_MS;
  const instance = options.instance ?? `${hostname()}:${process.pid}:${randomBytes(3).toString('hex')}`;
  /** Assets of releases served before, answered until their time is up unless a newer release has the same path. */
  const retired = new Map<string, { file: StaticFile; until: number }>();

  const first = await releases.live();
  if (!first) throw new Error('No release is live: ensureLiveRelease first');
  let generation = first.generation;
  let served = await prepare(first.releaseId, undefined);
  /** The live release last read from the store, and since when it has not been the one served. */
  let live = first.releaseId;
  let behindSince: number | undefined;

  /** The release `releaseId` ready to answer, with the assets of `answering` (the release answering now) kept. */
  async function prepare(releaseId: number, answering: ServedSite | undefined): Promise<ServedSite> {
    const started = now();
    const [files, documents] = await Promise.all([
      releases.files(releaseId),
      releases.documents(releaseId, { under: 'site' }),
    ]);
    const content = serverContentOf(documentMap(documents));
    const at = now();
    // The assets answered now are kept beside the next release (a page open in a browser may still ask for them).
    for (const [path, file] of answering?.files.assets ?? [])
      if (!retired.has(path)) retired.set(path, { file, until: at + keepMs });
    for (const [path, entry] of retired) if (entry.until < at) retired.delete(path);
    const kept = new Map([...retired].map(([path, entry]) => [path, entry.file]));
    const site: ServedSite = {
      release: releaseId,
      files: await prepareStaticSite(files, kept),
      redirects: content.redirects,
    };
    options.onContent?.(content, releaseId);
    logger.info(
      { release: releaseId, files: files.size, ms: Math.round(now() - started) },
      'release prepared',
    );
    return site;
  }

  function swap(next: ServedSite, nextGeneration: number): void {
    served = next;
    generation = nextGeneration;
    behindSince = undefined;
    logger.info({ release: next.release, generation }, 'release live');
  }

  let following: Promise<void> | undefined;
  async function readPointer(): Promise<void> {
    let pointer: LiveRelease | undefined;
    try {
      pointer = await releases.live();
    } catch (error) {
      logger.warn({ err: error }, 'reading the live release failed; the next poll tries again');
      return;
    }
    if (!pointer || pointer.generation === generation) return;
    live = pointer.releaseId;
    behindSince ??= now();
    if (pointer.releaseId === served.release) return swapSame(pointer);
    try {
      swap(await prepare(pointer.releaseId, served), pointer.generation);
      void report();
    } catch (error) {
      logger.error({ err: error, release: pointer.releaseId }, 'preparing the live release failed; retrying');
    }
  }
  /** The pointer moved back to the release already served (a rollback of a release never taken here). */
  function swapSame(pointer: LiveRelease): void {
    generation = pointer.generation;
    behindSince = undefined;
  }
  const follow = (): Promise<void> => {
    following ??= readPointer().finally(() => (following = undefined));
    return following;
  };

  async function report(): Promise<void> {
    try {
      await releases.reportServing(instance, served.release ?? 0);
    } catch (error) {
      logger.warn({ err: error }, 'reporting the served release failed');
    }
  }

  await report();
  const poll = setInterval(() => void follow(), options.pollMs ?? POLL_MS);
  const heartbeat = setInterval(() => void report(), options.heartbeatMs ?? HEARTBEAT_MS);
  poll.unref();
  heartbeat.unref();
  const unlisten = await releases
    .onLiveChange(() => void follow())
    .catch((error: unknown) => {
      logger.warn({ err: error }, 'listening for new releases failed; polling only');
      return async () => undefined;
    });
  logger.info({ release: served.release, instance }, 'serving release');

  return {
    instance,
    current: () => served,
    health: () => ({
      id: served.release ?? 0,
      live,
      behindSeconds: behindSince === undefined ? 0 : Math.floor((now() - behindSince) / 1000),
    }),
    follow,
    async stop() {
      clearInterval(poll);
      clearInterval(heartbeat);
      await unlisten();
      await following;
      await releases.forgetInstance(instance).catch(() => undefined);
    },
  };
}
