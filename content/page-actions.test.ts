// The page actions' edits, documents in and edited documents out: what the local studio writes to files and the
// content API saves into a change set.
import { describe, expect, it } from 'vitest';
import { pageActionEdits, pageActionOf, type Documents } from './page-actions.ts';

const site = {
  footer: { groups: [{ title: 'Treatments', links: [{ label: 'Detox', href: '/services/medical-detox' }] }] },
};
const redirects = {
  redirects: [
    { from: ['/old-detox'], to: '/services/medical-detox#timeline' },
    { from: ['/other'], to: '/' },
  ],
};
const page = { title: 'Medical detox' };
const documents: Documents = (file) =>
  ({
    'site/site.json': site,
    'site/redirects.json': redirects,
    'pages/services/medical-detox.json': page,
    'pages/index.json': {},
  })[file];

describe('page actions', () => {
  it('deletes a page and redirects its address, and the rules that led to it, to the page chosen', () => {
    const outcome = pageActionEdits(
      { action: 'delete', file: 'pages/services/medical-detox.json', redirectTo: '/' },
      documents,
    );
    expect(outcome).toEqual({
      ok: true,
      edits: [
        { file: 'pages/services/medical-detox.json', document: null },
        {
          file: 'site/redirects.json',
          document: {
            redirects: [
              { from: ['/old-detox'], to: '/' },
              { from: ['/other'], to: '/' },
              { from: ['/services/medical-detox'], to: '/' },
            ],
          },
        },
      ],
      answer: { deleted: '/services/medical-detox', redirectTo: '/' },
    });
    // The documents given are never changed.
    expect(redirects.redirects[0]?.to).toBe('/services/medical-detox#timeline');
  });

  it('moves a page: the same document at the new address first, keeping the anchors of rules that led to it', () => {
    const outcome = pageActionEdits(
      { action: 'move', file: 'pages/services/medical-detox.json', path: '/services/detox', redirect: true },
      documents,
    );
    expect(outcome.ok && outcome.edits).toEqual([
      { file: 'pages/services/detox.json', document: page, copyOf: 'pages/services/medical-detox.json' },
      { file: 'pages/services/medical-detox.json', document: null },
      {
        file: 'site/redirects.json',
        document: {
          redirects: [
            { from: ['/old-detox'], to: '/services/detox#timeline' },
            { from: ['/other'], to: '/' },
            { from: ['/services/medical-detox'], to: '/services/detox' },
          ],
        },
      },
    ]);
    expect(
      pageActionEdits(
        { action: 'move', file: 'pages/services/medical-detox.json', path: '/', redirect: false },
        documents,
      ),
    ).toEqual({ ok: false, status: 409, error: '/ is already a page' });
  });

  it('adds a page to a menu once, and refuses what it cannot do, with why', () => {
    const add = { action: 'menu', pointer: '/footer/groups/0/links', path: '/', label: 'Home' } as const;
    const outcome = pageActionEdits(add, documents);
    expect(outcome.ok && outcome.edits[0]?.document).toEqual({
      footer: {
        groups: [
          {
            title: 'Treatments',
            links: [
              { label: 'Detox', href: '/services/medical-detox' },
              { label: 'Home', href: '/' },
            ],
          },
        ],
      },
    });
    expect(pageActionEdits({ ...add, path: '/services/medical-detox' }, documents)).toMatchObject({
      ok: false,
      status: 409,
    });
    expect(pageActionEdits({ action: 'delete', file: 'site/site.json' }, documents)).toMatchObject({
      status: 403,
    });
    expect(pageActionOf({ action: 'rename' })).toBe('action: "menu", "delete" or "move"');
  });
});
