// Which clinical reviews a new release keeps. A page's "Medically reviewed by" line stands while the page's clinical
// fields are as they were reviewed: a later change to its other fields keeps it, a change to a clinical field (or the
// page's removal) drops it, and only a new approval by a credentialed reviewer gives the page a line again.
import { claimChanges } from '../../content/claims/diff.ts';
import { kindOf } from '../../content/kinds.ts';
import { pagePath } from '../../core/page-paths.ts';
import type { PageReviews } from '../../renderer/medical-review.ts';
import type { ReleaseDocument } from '../store/contract/release-store.ts';

/** The page documents of a release by page path. */
function pagesByPath(documents: readonly ReleaseDocument[]): Map<string, string> {
  return new Map(
    documents
      .filter((document) => kindOf(document.path) === 'page')
      .map((document) => [pagePath(document.path), document.text]),
  );
}

/** The reviews of the release before (`reviews`, for `before`) that still hold for the documents `after`. */
export function carriedReviews(
  before: readonly ReleaseDocument[],
  reviews: PageReviews,
  after: readonly ReleaseDocument[],
): PageReviews {
  const was = pagesByPath(before);
  const now = pagesByPath(after);
  const kept: Record<string, PageReviews[string]> = {};
  for (const [path, review] of Object.entries(reviews)) {
    const old = was.get(path);
    const text = now.get(path);
    if (old === undefined || text === undefined) continue;
    if (text === old || !claimChanges('page', JSON.parse(old), JSON.parse(text)).kinds.includes('clinical'))
      kept[path] = review;
  }
  return kept;
}
