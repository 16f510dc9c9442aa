// The review lines a publish writes (core/page-reviews.ts, issue #28 item 6): the live release's, carried over; for a
// page whose clinical content the publish changes, the clinical approval of the change set that changed it, or no line
// when none covers it (a clinical change published from the checkout drops the old line: it no longer tells the truth).
// Never from anything a person types: the approver's name and credential as the store kept them when they approved.
import { claimChanges } from '../../content/claims/diff.ts';
import { pagePath } from '../../core/page-paths.ts';
import { readReviews, REVIEWS_DOCUMENT, type ReviewsDocument } from '../../core/page-reviews.ts';
import type { ChangeApproval } from '../store/contract/change-store.ts';
import type { ReleaseDocument } from '../store/contract/release-store.ts';

const parse = (text: string | undefined): unknown =>
  text === undefined ? undefined : (JSON.parse(text) as unknown);

/**
 * `site` (the documents about to be published) with the reviews document the publish leaves: `live` is the live
 * release's documents; `approval`, the current clinical approval of the change set published (none from the checkout),
 * given to every page of `approvedPaths` (the set's documents) whose clinical content changed.
 */
export function withReviews(
  live: ReadonlyMap<string, string>,
  site: readonly ReleaseDocument[],
  approval: { changeSet: string; approval: ChangeApproval } | undefined,
  approvedPaths: ReadonlySet<string>,
): ReleaseDocument[] {
  const reviews: ReviewsDocument = readReviews(live.get(REVIEWS_DOCUMENT));
  const pages = new Map(
    site.filter((document) => document.path.startsWith('pages/')).map((d) => [d.path, d.text]),
  );
  const present = new Set([...pages.keys()].map(pagePath));
  for (const path of Object.keys(reviews.pages)) if (!present.has(path)) delete reviews.pages[path];
  for (const [file, text] of pages) {
    const before = live.get(file);
    if (before === text) continue;
    if (!claimChanges('page', parse(before), parse(text)).kinds.includes('clinical')) continue;
    const path = pagePath(file);
    const given = approval && approvedPaths.has(file) && approval.approval.name ? approval : undefined;
    if (given?.approval.name)
      reviews.pages[path] = {
        name: given.approval.name,
        credential: given.approval.credential,
        date: new Date(given.approval.at).toISOString().slice(0, 10),
        changeSet: given.changeSet,
      };
    else delete reviews.pages[path];
  }
  const rest = site.filter((document) => document.path !== REVIEWS_DOCUMENT);
  if (Object.keys(reviews.pages).length === 0) return rest;
  return [...rest, { path: REVIEWS_DOCUMENT, text: `${JSON.stringify(reviews, null, 2)}\n` }].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  );
}
