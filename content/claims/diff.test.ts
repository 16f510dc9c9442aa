// The claim diff on the checkout's real documents: each test edits one as content staff would, and checks the
// kinds of review the change needs and where.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../paths.ts';
import { setAt, valueAt } from '../json-pointer.ts';
import { claimChanges } from './diff.ts';

const read = (rel: string): unknown => JSON.parse(readFileSync(join(ROOT, rel), 'utf8'));
const FENTANYL = read('pages/treatment/fentanyl-addiction.json');
const SITE = read('site/site.json');

/** The pointer of the first block of `type` on the page. */
function blockOf(page: unknown, type: string): string {
  const blocks = valueAt(page, '/blocks') as { type: string }[];
  const k = blocks.findIndex((b) => b.type === type);
  expect(k, `a ${type} block on the page`).toBeGreaterThanOrEqual(0);
  return `/blocks/${k}`;
}

const edit = (doc: unknown, pointer: string, value: unknown) => setAt(doc, pointer, value);

describe('claimChanges', () => {
  it('finds nothing when nothing changed, even with keys in another order', () => {
    const reordered = Object.fromEntries(Object.entries(FENTANYL as object).reverse());
    expect(claimChanges('page', FENTANYL, reordered)).toEqual({ kinds: [], changes: [] });
  });

  it("calls the fentanyl page's detox duration a clinical change, at its pointer", () => {
    const at = `${blockOf(FENTANYL, 'protocol-cards')}/protocols/0/duration`;
    expect(valueAt(FENTANYL, at)).toBe('7-14 days');
    const report = claimChanges('page', FENTANYL, edit(FENTANYL, at, '3-5 days'));
    expect(report).toEqual({
      kinds: ['clinical'],
      changes: [{ pointer: at, change: 'changed', kinds: ['clinical'] }],
    });
  });

  it('calls the success rate in structured data clinical', () => {
    const report = claimChanges(
      'page',
      FENTANYL,
      edit(FENTANYL, '/structuredData/treatment/successRate', 95),
    );
    expect(report.kinds).toEqual(['clinical']);
  });

  it("calls a block's heading other", () => {
    const at = `${blockOf(FENTANYL, 'faq')}/heading`;
    const report = claimChanges('page', FENTANYL, edit(FENTANYL, at, 'Questions Families Ask'));
    expect(report).toEqual({
      kinds: ['other'],
      changes: [{ pointer: at, change: 'changed', kinds: ['other'] }],
    });
  });

  it("calls the site's phone number a contact change, as shown and as dialled", () => {
    let after = edit(SITE, '/phones/primary/display', '(555) 010-0199');
    after = edit(after, '/phones/primary/tel', '+15550100199');
    expect(claimChanges('site', SITE, after)).toEqual({
      kinds: ['contact'],
      changes: [
        { pointer: '/phones/primary/display', change: 'changed', kinds: ['contact'] },
        { pointer: '/phones/primary/tel', change: 'changed', kinds: ['contact'] },
      ],
    });
  });

  it('calls a new tel: link inside an untagged field a contact change (the contact-link rule)', () => {
    const at = `${blockOf(FENTANYL, 'faq')}/intro`;
    const report = claimChanges(
      'page',
      FENTANYL,
      edit(FENTANYL, at, 'Questions? [Call us](tel:+15550100123).'),
    );
    expect(report.changes).toEqual([{ pointer: at, change: 'added', kinds: ['contact'] }]);
  });

  it('reports an inserted FAQ entry alone, not every entry after it, with its own fields', () => {
    const items = `${blockOf(FENTANYL, 'faq')}/items`;
    const list = valueAt(FENTANYL, items) as unknown[];
    const entry = { question: 'Can I bring my phone?', answer: 'Yes, with quiet hours at night.' };
    const report = claimChanges('page', FENTANYL, edit(FENTANYL, items, [entry, ...list]));
    expect(report.changes).toEqual([
      { pointer: `${items}/0/question`, change: 'added', kinds: ['other'] },
      { pointer: `${items}/0/answer`, change: 'added', kinds: ['clinical'] },
    ]);
    expect(report.kinds).toEqual(['clinical', 'other']);
  });

  it('calls a block that only moved a move, reviewed by anyone; a removed warning is clinical', () => {
    const blocks = valueAt(FENTANYL, '/blocks') as unknown[];
    const moved = claimChanges('page', FENTANYL, edit(FENTANYL, '/blocks', [...blocks.slice(1), blocks[0]]));
    expect(moved.kinds).toEqual(['other']);
    expect(moved.changes.every((c) => c.change === 'moved')).toBe(true);

    const xanax = read('pages/treatment/xanax-addiction.json');
    const at = blockOf(xanax, 'warning-box');
    const removed = claimChanges('page', xanax, edit(xanax, at, undefined));
    expect(removed.kinds).toContain('clinical');
    expect(removed.changes).toContainEqual({
      pointer: `${at}/heading`,
      change: 'removed',
      kinds: ['clinical'],
    });
  });

  it('compares a block whose type changed as one removed and one added', () => {
    const at = blockOf(FENTANYL, 'cta-band');
    const report = claimChanges('page', FENTANYL, edit(FENTANYL, at, { type: 'breadcrumb' }));
    expect(report.changes).toContainEqual({ pointer: `${at}/type`, change: 'added', kinds: ['other'] });
    expect(report.changes).toContainEqual({
      pointer: `${at}/callLabel`,
      change: 'removed',
      kinds: ['contact'],
    });
  });

  it("reads a rich-text item's variant from its shape: a paragraph is clinical, a sub-heading other", () => {
    const body = `${blockOf(FENTANYL, 'rich-text')}/body`;
    const list = valueAt(FENTANYL, body) as unknown[];
    const after = edit(FENTANYL, body, [
      ...list,
      { subheading: 'More' },
      'Fentanyl is 50 times stronger than heroin.',
    ]);
    expect(claimChanges('page', FENTANYL, after).changes).toEqual([
      { pointer: `${body}/${list.length}/subheading`, change: 'added', kinds: ['other'] },
      { pointer: `${body}/${list.length + 1}`, change: 'added', kinds: ['clinical'] },
    ]);
  });
});
