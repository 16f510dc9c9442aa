// A page keeps its "Medically reviewed by" line while its clinical fields are as reviewed.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import type { Page } from '../../generated/content-types.ts';
import { carriedReviews } from './reviews.ts';

const FENTANYL = 'pages/treatment/fentanyl-addiction.json';
const DETOX = 'pages/services/medical-detox.json';
const text = (file: string) => readFileSync(join(ROOT, file), 'utf8');
const REVIEW = { name: 'Maya Chen', credential: 'MD, Addiction Medicine', date: '2026-11-28' };
const reviews = { '/treatment/fentanyl-addiction': REVIEW, '/services/medical-detox': REVIEW };
const before = [
  { path: FENTANYL, text: text(FENTANYL) },
  { path: DETOX, text: text(DETOX) },
];

/** The fentanyl page with `change` applied to a copy of its document. */
function fentanylWith(change: (page: Page) => void) {
  const page = JSON.parse(text(FENTANYL)) as Page;
  change(page);
  return [{ path: FENTANYL, text: JSON.stringify(page, null, 2) }, before[1]!];
}

describe('carriedReviews', () => {
  it('keeps every review when the pages are unchanged, or changed outside their clinical fields', () => {
    expect(carriedReviews(before, reviews, before)).toEqual(reviews);
    const retitled = fentanylWith(
      (page) => (page.title = 'Fentanyl Addiction Treatment in California, 24/7'),
    );
    expect(carriedReviews(before, reviews, retitled)).toEqual(reviews);
  });

  it("drops a page's review when one of its clinical fields changed, and keeps the others", () => {
    const detoxLonger = fentanylWith((page) => {
      const faq = page.blocks.find((block) => block.type === 'faq');
      if (faq?.type !== 'faq') throw new Error('the fentanyl page has no FAQ');
      faq.items[0]!.answer = 'Detox usually takes 10-21 days, followed by residential treatment.';
    });
    expect(carriedReviews(before, reviews, detoxLonger)).toEqual({ '/services/medical-detox': REVIEW });
  });

  it('drops the review of a page that is gone', () => {
    expect(carriedReviews(before, reviews, [before[1]!])).toEqual({ '/services/medical-detox': REVIEW });
  });
});
