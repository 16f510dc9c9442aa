// "Medically reviewed by" (issue #28, item 6): which pages carry a review line, written only by a publish from the
// approval of the content it publishes (server/content-staff/review-lines.ts), never typed. A release document of its
// own, `site/reviews.json`, that no schema admits, no editor opens and the content API refuses to save; the prerender
// gives each page its entry (core/prerender/content.ts), the page prints it and its structured data (`reviewedBy`,
// `lastReviewed`). Pure and browser-safe.
import type { Page } from '../generated/content-types.ts';

/** Where a release keeps its review lines, beside the site document. */
export const REVIEWS_DOCUMENT = 'site/reviews.json';

/** A page's review: who approved its clinical content, with what credential, on which day (YYYY-MM-DD, UTC). */
export interface PageReview {
  name: string;
  credential: string | null;
  date: string;
}

/** The reviews document: each reviewed page's review by URL path, and the change set whose approval gave it. */
export interface ReviewsDocument {
  pages: Record<string, PageReview & { changeSet: string }>;
}

/** A page as the renderer gets it: its document, and its review when it has one. */
export type ReviewedPage = Page & { review?: PageReview };

/** "Maya Chen, MD, Addiction Medicine": the reviewer as the line names them. */
export const reviewerWords = (review: PageReview): string =>
  review.credential ? `${review.name}, ${review.credential}` : review.name;

/** The review document's entries, or none for text that is not one. */
export function readReviews(text: string | undefined | null): ReviewsDocument {
  if (!text) return { pages: {} };
  try {
    const value = JSON.parse(text) as Partial<ReviewsDocument>;
    return { pages: typeof value.pages === 'object' && value.pages !== null ? value.pages : {} };
  } catch {
    return { pages: {} };
  }
}
