// What a server does at start before it serves: make sure a release is live, and that it was built with this code.
// - No release yet (a first start): the build in dist/ becomes release 1, with the documents it was built from.
// - A live release built with other code (a code deploy): its content is rebuilt with this code into a new release,
//   which goes live. A new deploy never serves old code, and never loses content published since the last deploy.
// Both happen under the publish lock, after reading the pointer again: on PostgreSQL the first instance of a new
// version builds, and the others wait for the lock, then find the release built and serve it.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../content/paths.ts';
import type { Logger } from '../logger.ts';
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { ReleaseStore } from '../store/contract/release-store.ts';
import { contentHashOf } from '../store/shared/release-blobs.ts';
import { buildRelease, releaseFilesOf } from './build-release.ts';
import { canRender, codeVersionOf, sameCode } from './code-version.ts';
import { readDocuments } from './documents.ts';
import { makeLive } from './publisher.ts';

const SERVER_ACTOR = 'server';

/** The documents dist/ was built from: `npm run build` copies them to dist/content/ (the checkout's, for older builds). */
const builtContentRoot = (codeDir: string): string =>
  existsSync(join(codeDir, 'content')) ? join(codeDir, 'content') : ROOT;

export async function ensureLiveRelease(
  store: { releases: ReleaseStore; audit: AuditLog },
  codeDir: string,
  logger: Logger,
): Promise<void> {
  const { releases } = store;
  const codeVersion = codeVersionOf(codeDir);
  const current = () => liveSummary(releases);
  const before = await current();
  if (!before || !sameCode(before.summary.codeVersion, codeVersion))
    await releases.withPublishLock(
      async () => {
        const now = await current();
        if (now && sameCode(now.summary.codeVersion, codeVersion)) return; // another instance built it meanwhile
        const rebuild = now !== undefined && canRender(codeDir);
        const documents = rebuild
          ? await releases.documents(now.live.releaseId)
          : readDocuments(builtContentRoot(codeDir));
        // The same content keeps its "Medically reviewed by" lines: the reviews are the live release's.
        const reviews = rebuild ? await releases.reviews(now.live.releaseId) : {};
        const started = Date.now();
        const files = rebuild
          ? await buildRelease(codeDir, documents, reviews)
          : releaseFilesOf(join(codeDir, 'client'));
        const release = await releases.create({
          files,
          documents,
          reviews,
          codeVersion,
          author: SERVER_ACTOR,
          message: rebuild
            ? `Release ${now.live.releaseId}'s content, rebuilt with the code ${codeVersion}`
            : `The build in ${codeDir}`,
        });
        await makeLive(store, release.id, { kind: 'deploy', actor: SERVER_ACTOR });
        logger.info(
          { release: release.id, codeVersion, from: now?.live.releaseId ?? null, ms: Date.now() - started },
          rebuild
            ? 'rebuilt the live content with this code'
            : 'took the build in dist/ as the first release',
        );
      },
      () =>
        logger.info('another instance holds the publish lock (a publish, or a build for new code); waiting'),
    );
  await warnIfDistDiffers(await current(), codeDir, logger);
}

/** The live pointer with its release's summary, or undefined before any release went live. */
async function liveSummary(releases: ReleaseStore) {
  const live = await releases.live();
  return live && { live, summary: (await releases.get(live.releaseId))! };
}

/** Says so when dist/ was built from other content than the live release's: it is not what visitors get. */
function warnIfDistDiffers(
  now: Awaited<ReturnType<typeof liveSummary>>,
  codeDir: string,
  logger: Logger,
): void {
  const distContent = join(codeDir, 'content');
  if (!existsSync(distContent)) return;
  const summary = now?.summary;
  if (summary && summary.contentHash !== contentHashOf(readDocuments(distContent)))
    logger.warn(
      { release: summary.id, command: 'npm run content -- publish' },
      `${codeDir} holds content other than the live release's; visitors get release ${summary.id}. ` +
        "To publish the checkout's content: npm run content -- publish",
    );
}
