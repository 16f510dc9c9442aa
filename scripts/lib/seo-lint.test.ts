import { describe, expect, it } from 'vitest';
import { pageDocuments, SEO_LENGTHS, seoWarnings, type SeoPage } from './seo-lint.ts';

const title = (length: number) => 'T'.repeat(length);
const description = (length: number) => 'D'.repeat(length);
const page = (file: string, overrides: Partial<SeoPage> = {}): SeoPage => ({
  file,
  title: `${file} — a title of a good length`,
  description: `${file}: a description long enough to fill the snippet search results show under a title.`,
  ...overrides,
});

describe('seoWarnings', () => {
  it('says nothing about unique titles and descriptions of search-result length', () => {
    expect(seoWarnings([page('pages/a.json'), page('pages/b.json')])).toEqual([]);
  });

  it('warns about titles and descriptions longer or shorter than search results show', () => {
    const { title: t, description: d } = SEO_LENGTHS;
    const warnings = seoWarnings([
      page('pages/long.json', { title: title(t.max + 1), description: description(d.max + 1) }),
      page('pages/short.json', { title: title(t.min - 1), description: description(d.min - 1) }),
      page('pages/edge.json', { title: `${title(t.max - 1)}a`, description: `${description(d.min - 1)}b` }),
    ]);
    expect(warnings).toEqual([
      `pages/long.json:1:1  /title  warning: title is ${t.max + 1} characters; search results show about ${t.max}`,
      `pages/long.json:1:1  /description  warning: description is ${d.max + 1} characters; search results show about ${d.max}`,
      `pages/short.json:1:1  /title  warning: title is ${t.min - 1} characters; aim for ${t.min}-${t.max} to use the space`,
      `pages/short.json:1:1  /description  warning: description is ${d.min - 1} characters; aim for ${d.min}-${d.max} to use the space`,
    ]);
  });

  it('warns on every page that shares a title or description, naming the others, whatever the case and spacing', () => {
    const shared = 'Medical Detox in California | Coastline Recovery';
    const warnings = seoWarnings([
      page('pages/a.json', { title: shared }),
      page('pages/b.json', { title: shared.toUpperCase() }),
      page('pages/c.json', {
        title: shared.replace(/ /g, '  '),
        description: page('pages/a.json').description,
      }),
    ]);
    expect(warnings).toEqual([
      'pages/a.json:1:1  /title  warning: same title as pages/b.json, pages/c.json; each page needs its own',
      'pages/a.json:1:1  /description  warning: same description as pages/c.json; each page needs its own',
      'pages/b.json:1:1  /title  warning: same title as pages/a.json, pages/c.json; each page needs its own',
      'pages/c.json:1:1  /title  warning: same title as pages/a.json, pages/b.json; each page needs its own',
      'pages/c.json:1:1  /description  warning: same description as pages/a.json; each page needs its own',
    ]);
  });

  it('points at the field in the source when its position is known', () => {
    const at = (pointer: string) => (pointer === '/title' ? { line: 3, column: 12 } : undefined);
    expect(seoWarnings([page('pages/x.json', { title: title(80), at })])).toEqual([
      'pages/x.json:3:12  /title  warning: title is 80 characters; search results show about 60',
    ]);
  });
});

describe('pageDocuments', () => {
  it('reads every page of the site with the position of its title', () => {
    const pages = pageDocuments();
    const home = pages.find((p) => p.file === 'pages/index.json');
    expect(home?.title).toBeTruthy();
    expect(home?.at?.('/title')).toEqual({ line: expect.any(Number), column: expect.any(Number) });
    expect(pages.every((p) => p.file.startsWith('pages/'))).toBe(true);
  });
});
