// The review lines a change set's publish gives (issue #28, item 6): for each page of the set whose clinical content
// it changes, its current clinical approval: the approver's name and credential as the store kept them when they
// approved, and the day. Never from anything a person types. The release engine carries the live release's lines
// over for pages whose clinical content stays as reviewed, and drops the rest (server/releases/reviews.ts).
import { claimChanges } from '../../content/claims/diff.ts';
import { kindOf } from '../../content/kinds.ts';
import { pagePath } from '../../core/page-paths.ts';
import type { MedicalReview, PageReviews } from '../../renderer/medical-review.ts';
import type { ChangeApproval } from '../store/contract/change-store.ts';
import type { ReleaseDocument } from '../store/contract/release-store.ts';

const parse = (text: string | undefined): unknown =>
  text === undefined ? undefined : (JSON.parse(text) as unknown);

/**
 * The reviews `approval` (the set's current clinical approval, if any, with a name) gives the pages of `approvedPaths`
 * (the set's documents) whose clinical content differs between `live` (the live release's documents) and `published`.
 */
export function approvedReviews(
  live: ReadonlyMap<string, string>,
  published: readonly ReleaseDocument[],
  approval: ChangeApproval | undefined,
  approvedPaths: ReadonlySet<string>,
): PageReviews {
  if (!approval?.name) return {};
  const review: MedicalReview = {
    name: approval.name,
    credential: approval.credential ?? '',
    date: new Date(approval.at).toISOString().slice(0, 10),
  };
  const given: Record<string, MedicalReview> = {};
  for (const { path, text } of published) {
    if (kindOf(path) !== 'page' || !approvedPaths.has(path)) continue;
    const before = live.get(path);
    if (before === text) continue;
    if (claimChanges('page', parse(before), parse(text)).kinds.includes('clinical'))
      given[pagePath(path)] = review;
  }
  return given;
}
