// Builds a release's files from content documents with the code in a built code folder (dist/): the render bundle
// renders every page, and the client build's hashed assets are copied beside them. No Vite: content is data, so a
// server installed with `npm ci --omit=dev` can build one.
import { contentPaths } from '../../content/paths.ts';
import { contentProblems } from '../../content/validate/validate-content.ts';
import { readSiteFiles } from '../http/static-pages.ts';
import type { PageReviews } from '../../renderer/medical-review.ts';
import type { ReleaseDocument, ReleaseFileInput } from '../store/contract/release-store.ts';
import { withContentRoot } from './documents.ts';

/** Build internals a folder may hold that a release does not keep (never served: dot-folders are not). */
const NOT_KEPT = /^\.vite\//;

/** The files of a built site folder as a release keeps them. */
export function releaseFilesOf(dir: string): ReleaseFileInput[] {
  return [...readSiteFiles(dir)]
    .filter(([path]) => !NOT_KEPT.test(path))
    .map(([path, bytes]) => ({ path, bytes }));
}

/**
 * Renders `documents` with the code in `codeDir` in a temporary folder, and returns the site's files. `reviews`: the
 * clinical reviews that hold for these documents, by page path (a publish of an approved change set gives them).
 */
export async function buildRelease(
  codeDir: string,
  documents: readonly ReleaseDocument[],
  reviews: PageReviews = {},
): Promise<ReleaseFileInput[]> {
  return withContentRoot(documents, async (contentRoot, outDir) => {
    // The build's own checks, with this code's schemas: content stored under older code may not pass them.
    const problems = contentProblems(contentPaths(contentRoot));
    if (problems.length)
      throw new Error(`the content does not pass this code's checks:\n${problems.join('\n')}`);
    // Loaded when a build is asked for: a server that only serves never loads the renderer's tooling.
    const { prerenderSite } = await import('../../core/prerender/index.ts');
    await prerenderSite({ codeDir, contentRoot, outDir, reviews });
    return releaseFilesOf(outDir);
  });
}
