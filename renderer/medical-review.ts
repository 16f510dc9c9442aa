// "Medically reviewed by": the record of a clinical review of a page's claims, as a release carries it. Content never
// holds it (no page schema has such a field, and the validator refuses unknown fields): the publish of an approved
// change set gives it to the prerender from the approval itself (issue #28, item 6), so the line cannot be typed.
import type { Page } from '../generated/content-types.ts';

export interface MedicalReview {
  /** The reviewer's display name: "Maya Chen". */
  name: string;
  /** Their clinical credential: "MD, Addiction Medicine". */
  credential: string;
  /** The day the page's clinical content was approved, YYYY-MM-DD (UTC). */
  date: string;
}

/** The reviews of a release's pages, by URL path. */
export type PageReviews = Readonly<Record<string, MedicalReview>>;

/** A page document as a release renders it: the document, and the review of its claims when one holds. */
export type PageData = Page & { medicalReview?: MedicalReview };

/** "November 28, 2026": the same words on the server and in every browser, whatever their time zone. */
export const reviewDay = (date: string): string =>
  new Date(`${date}T00:00:00Z`).toLocaleDateString('en-US', { timeZone: 'UTC', dateStyle: 'long' });

/** "Maya Chen, MD, Addiction Medicine". */
export const reviewer = ({ name, credential }: MedicalReview): string =>
  credential ? `${name}, ${credential}` : name;
