import { describe, expect, it } from 'vitest';
import {
  linkProblems,
  pageAnchors,
  redirectProblems,
  relatedProgramsProblems,
  siteIndex,
  type SiteIndex,
} from './link-rules.ts';
import { ROOT, contentPaths } from '../paths.ts';

const index = (): SiteIndex => ({
  pages: new Map([
    ['/', new Set(['main', 'programs', 'contact'])],
    ['/services/medical-detox', new Set(['main', 'verify'])],
  ]),
  redirects: new Map([
    ['/detox', '/services/medical-detox'],
    ['/contact-us', '/#contact'],
  ]),
  programs: new Set(['/services/medical-detox']),
});

describe('redirect validation', () => {
  const check = (redirects: { from: string[]; to: string }[]) => {
    const idx = index();
    idx.redirects = new Map(redirects.flatMap((rule) => rule.from.map((from) => [from, rule.to] as const)));
    return redirectProblems({ redirects }, idx);
  };

  it('accepts targets that are pages, with anchors that exist', () => {
    expect(
      check([
        { from: ['/detox'], to: '/services/medical-detox' },
        { from: ['/contact-us'], to: '/#contact' },
      ]),
    ).toEqual([]);
  });

  it('rejects a target that is not a page, or an anchor the page lacks', () => {
    expect(check([{ from: ['/old'], to: '/services/nothing' }])).toEqual([
      {
        code: 'redirect-target-not-a-page',
        pointer: '/redirects/0/to',
        message: '"/services/nothing" is not a page under pages/',
        at: 'value',
      },
    ]);
    expect(check([{ from: ['/old'], to: '/#nowhere' }])).toEqual([
      {
        code: 'redirect-target-missing-anchor',
        pointer: '/redirects/0/to',
        message: 'the page / has no section with id "nowhere"',
        at: 'value',
      },
    ]);
  });

  it('rejects chains and loops', () => {
    expect(
      check([
        { from: ['/a'], to: '/b' },
        { from: ['/b'], to: '/services/medical-detox' },
      ])[0],
    ).toEqual({
      code: 'redirect-chain',
      pointer: '/redirects/0/to',
      message:
        'redirect chain: "/b" itself redirects to "/services/medical-detox"; point straight at the final page',
      at: 'value',
    });
    expect(
      check([
        { from: ['/a'], to: '/b' },
        { from: ['/b'], to: '/a' },
      ]).map((p) => p.message),
    ).toEqual(['redirect loop: "/b" redirects back to "/a"', 'redirect loop: "/a" redirects back to "/b"']);
  });

  it('rejects a source that is a page or is listed twice', () => {
    expect(check([{ from: ['/services/medical-detox', '/x', '/x'], to: '/' }]).map((p) => p.pointer)).toEqual(
      ['/redirects/0/from/0', '/redirects/0/from/2'],
    );
  });
});

describe('link integrity', () => {
  it('accepts links to pages, redirects and existing anchors, in fields and in text', () => {
    const doc = {
      blocks: [
        { type: 'hero', secondaryAction: { label: 'Verify', href: '/services/medical-detox#verify' } },
        { type: 'rich-text', body: ['See [detox](/detox) or [contact us](/contact-us).'] },
      ],
    };
    expect(linkProblems(doc, index())).toEqual([]);
  });

  it('names the link, the pointer and the reason when a link leads nowhere', () => {
    const doc = { footer: { links: [{ label: 'Gone', href: '/gone' }] }, text: 'Go [home](/#nothing)' };
    expect(linkProblems(doc, index())).toEqual([
      {
        code: 'broken-link',
        pointer: '/footer/links/0/href',
        message: 'link "/gone" leads nowhere: /gone is neither a page under pages/ nor a redirect',
        at: 'value',
        suggestion: '/',
        fix: { kind: 'replace-link', pointer: '/footer/links/0/href', from: '/gone', to: '/' },
      },
      {
        code: 'missing-anchor',
        pointer: '/text',
        message: 'link "/#nothing": the page / has no section with id "nothing"',
        at: 'value',
      },
    ]);
  });

  it('offers the closest page, redirect or anchor as a fix, where the link stands', () => {
    const [nowhere, anchor] = linkProblems(
      { href: '/services/medical-detx#verify', text: 'Call [us](/#contct) today' },
      index(),
    );
    expect(nowhere).toMatchObject({
      code: 'broken-link',
      suggestion: '/services/medical-detox#verify',
      fix: {
        kind: 'replace-link',
        pointer: '/href',
        from: '/services/medical-detx#verify',
        to: '/services/medical-detox#verify',
      },
    });
    expect(anchor).toMatchObject({
      code: 'missing-anchor',
      suggestion: '/#contact',
      fix: { kind: 'replace-link', pointer: '/text', from: '/#contct', to: '/#contact' },
    });
    expect(linkProblems({ href: '/#zzzzzz' }, index())[0]).not.toHaveProperty('fix');
  });

  it('follows a redirect to check the anchor on its target', () => {
    expect(linkProblems({ href: '/detox#verify' }, index())).toEqual([]);
    expect(linkProblems({ href: '/detox#faq' }, index())[0]?.message).toContain(
      'has no section with id "faq"',
    );
  });

  it('reads anchors from block ids and aliases', () => {
    expect([...pageAnchors({ blocks: [{ id: 'a', aliases: ['b', 'c'] }, { type: 'x' }] })].sort()).toEqual([
      'a',
      'b',
      'c',
      'main',
    ]);
  });

  it('finds every page, redirect and catalogue entry of the real site', () => {
    const real = siteIndex(contentPaths(ROOT));
    expect(real.pages.size).toBe(33);
    expect(real.pages.get('/')?.has('facility-experience')).toBe(true);
    expect(real.redirects.get('/alchol')).toBe('/treatment/alcohol-addiction');
    expect(real.programs.size).toBe(11);
  });
});

describe('related programs', () => {
  const withCatalogue = (): SiteIndex => ({
    ...index(),
    pages: new Map([
      ...index().pages,
      ['/treatment/opioid-dependency', new Set(['main'])],
      ['/treatment/tramadol-addiction', new Set(['main'])],
    ]),
    programs: new Set([
      '/services/medical-detox',
      '/treatment/opioid-dependency',
      '/treatment/tramadol-addiction',
    ]),
  });
  const check = (block: Record<string, unknown>) =>
    relatedProgramsProblems(
      { type: 'related-programs', ...block },
      '/blocks/2',
      withCatalogue(),
      '/treatment/tramadol-addiction',
    );

  it('accepts preferences and picks that are catalogue entries', () => {
    expect(check({ prefer: ['/treatment/opioid-dependency'] })).toEqual([]);
    expect(check({ picks: ['/treatment/opioid-dependency', '/services/medical-detox'] })).toEqual([]);
  });

  it('suggests the catalogue entry meant, or lists the catalogue when none is close', () => {
    expect(check({ prefer: ['/services/medical-detx'], picks: ['/treatment/x'] })).toEqual([
      {
        code: 'unknown-program',
        pointer: '/blocks/2/prefer/0',
        message: 'unknown program "/services/medical-detx"; did you mean "/services/medical-detox"?',
        at: 'value',
        suggestion: '/services/medical-detox',
        fix: { kind: 'replace', pointer: '/blocks/2/prefer/0', value: '/services/medical-detox' },
      },
      {
        code: 'unknown-program',
        pointer: '/blocks/2/picks/0',
        message:
          'unknown program "/treatment/x"; programs in site/programs.json: /services/medical-detox, /treatment/opioid-dependency, /treatment/tramadol-addiction',
        at: 'value',
      },
      {
        code: 'prefer-with-picks',
        pointer: '/blocks/2/prefer',
        message: 'prefer does nothing when picks are given: the picks are shown as they are; remove prefer',
        at: 'value',
      },
    ]);
  });

  it('says when a pick is a page the catalogue lacks, or the page itself', () => {
    expect(check({ picks: ['/', '/treatment/tramadol-addiction'] })).toEqual([
      {
        code: 'program-not-in-catalogue',
        pointer: '/blocks/2/picks/0',
        message:
          '"/" is a page but not in the program catalogue (site/programs.json): add it there, with its card\'s title and description, to show it here',
        at: 'value',
      },
      {
        code: 'pick-is-this-page',
        pointer: '/blocks/2/picks/1',
        message: '"/treatment/tramadol-addiction" is this page; pick other programs',
        at: 'value',
      },
    ]);
  });

  it('leaves them to their own rule in a page-wide link check', () => {
    const doc = { blocks: [{ type: 'related-programs', prefer: ['/treatment/x'], picks: ['/treatment/y'] }] };
    expect(linkProblems(doc, index())).toEqual([]);
  });
});
