import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import { REVIEWS_DOCUMENT, readReviews } from '../../core/page-reviews.ts';
import type { ChangeApproval } from '../store/contract/change-store.ts';
import { withReviews } from './review-lines.ts';

const FILE = 'pages/treatment/fentanyl-addiction.json';
const text = readFileSync(join(ROOT, FILE), 'utf8');
type Page = { blocks: { items?: { duration?: string }[] }[]; title: string };
const edited = (edit: (page: Page) => void) => {
  const page = JSON.parse(text) as Page;
  edit(page);
  return `${JSON.stringify(page, null, 2)}\n`;
};
const clinical = edited((page) => void (page.blocks[4]!.items![0]!.duration = '10-14 days'));
const approval: ChangeApproval = {
  by: 'maya@example.org',
  at: Date.parse('2026-11-28T10:00:00Z'),
  contentHash: 'x',
  covers: ['clinical'],
  name: 'Maya Chen',
  credential: 'MD, Addiction Medicine',
};
const reviewsOf = (documents: { path: string; text: string }[]) =>
  readReviews(documents.find((document) => document.path === REVIEWS_DOCUMENT)?.text).pages;

describe('review lines written by a publish', () => {
  it("gives a page whose clinical content changed its change set's clinical approval", () => {
    const site = withReviews(
      new Map([[FILE, text]]),
      [{ path: FILE, text: clinical }],
      { changeSet: 'c1', approval },
      new Set([FILE]),
    );
    expect(reviewsOf(site)).toEqual({
      '/treatment/fentanyl-addiction': {
        name: 'Maya Chen',
        credential: 'MD, Addiction Medicine',
        date: '2026-11-28',
        changeSet: 'c1',
      },
    });
  });

  it('carries a line over a publish that does not change the clinical content, and drops it at one that does unreviewed', () => {
    const reviewed = withReviews(
      new Map([[FILE, text]]),
      [{ path: FILE, text: clinical }],
      { changeSet: 'c1', approval },
      new Set([FILE]),
    );
    const live = new Map(reviewed.map(({ path, text: body }) => [path, body]));
    const retitled = edited((page) => {
      page.blocks[4]!.items![0]!.duration = '10-14 days';
      page.title = 'Fentanyl treatment';
    });
    expect(
      Object.keys(reviewsOf(withReviews(live, [{ path: FILE, text: retitled }], undefined, new Set()))),
    ).toEqual(['/treatment/fentanyl-addiction']);
    // From the checkout, a new duration: no approval covers it, so the old line goes.
    const unreviewed = edited((page) => void (page.blocks[4]!.items![0]!.duration = '1 day'));
    expect(
      withReviews(live, [{ path: FILE, text: unreviewed }], undefined, new Set()).map((d) => d.path),
    ).toEqual([FILE]);
  });

  it('ignores a reviews document typed in the content', () => {
    const typed = {
      path: REVIEWS_DOCUMENT,
      text: '{"pages":{"/":{"name":"Dr. Nobody","credential":"MD","date":"2026-01-01"}}}',
    };
    expect(
      withReviews(new Map(), [{ path: 'pages/index.json', text: '{}' }, typed], undefined, new Set()),
    ).toEqual([{ path: 'pages/index.json', text: '{}' }]);
  });
});
