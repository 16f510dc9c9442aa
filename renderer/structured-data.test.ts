import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { jsonLd, structuredData } from './structured-data.ts';
import { breadcrumbTrail } from './content/breadcrumbs.ts';
import { pagePath } from '../core/page-paths.ts';
import { formPromise } from './text/form-promise.ts';
import { plainText } from './text/tokens.ts';
import { currentSite } from './site-context.tsx';
import type { Page } from '../generated/content-types.ts';
import type { PageData } from './medical-review.ts';

const site = currentSite();

const ROOT = join(import.meta.dirname, '..');
const pages = readdirSync(join(ROOT, 'pages'), { recursive: true, encoding: 'utf8' })
  .filter((file) => file.endsWith('.json'))
  .map((file) => {
    const rel = relative(ROOT, join(ROOT, 'pages', file))
      .split('\\')
      .join('/');
    return { path: pagePath(rel), page: JSON.parse(readFileSync(join(ROOT, rel), 'utf8')) as Page };
  });

type Node = Record<string, unknown> & { '@type': string };

/** Properties each type must carry to be useful to search engines (Google's required and recommended fields). */
const REQUIRED: Record<string, string[]> = {
  MedicalClinic: [
    'name',
    'url',
    'telephone',
    'email',
    'address',
    'openingHoursSpecification',
    'hasCredential',
    'aggregateRating',
  ],
  MedicalWebPage: ['url', 'name', 'description'],
  MedicalTherapy: ['name', 'description', 'url'],
  MedicalCondition: ['name'],
  Offer: ['name', 'url', 'offeredBy', 'eligibleDuration'],
  IndividualPhysician: ['name', 'description', 'occupationalCategory', 'hasCredential'],
  FAQPage: ['mainEntity'],
  BreadcrumbList: ['itemListElement'],
};

const graphOf = (path: string, page: PageData) =>
  (JSON.parse(jsonLd(structuredData(page, path, site))) as { '@graph': Node[] })['@graph'];

describe.each(pages.map(({ path, page }) => [path, page] as const))('structured data of %s', (path, page) => {
  const graph = graphOf(path, page);

  it("parses, and every node carries its type's required properties", () => {
    for (const node of graph) {
      const required = REQUIRED[node['@type']];
      expect(required, `unexpected type ${node['@type']}`).toBeDefined();
      for (const property of required ?? [])
        expect(node[property], `${node['@type']}.${property}`).toBeDefined();
    }
    expect(graph.filter((node) => node['@type'] === 'MedicalClinic')).toHaveLength(1);
  });

  it('has the FAQ the page shows, question for question', () => {
    const shown = page.blocks.flatMap((block) => (block.type === 'faq' ? block.items : []));
    const faq = graph.find((node) => node['@type'] === 'FAQPage');
    if (shown.length === 0) return expect(faq).toBeUndefined();
    const entities = faq?.mainEntity as { name: string; acceptedAnswer: { text: string } }[];
    expect(entities.map((q) => q.name)).toEqual(shown.map((item) => item.question));
    const values = {
      phone: site.phones[page.phoneLine ?? 'primary'].display,
      email: site.email,
      promise: formPromise,
    };
    expect(entities.map((q) => q.acceptedAnswer.text)).toEqual(
      shown.map((item) => plainText(item.answer, values)),
    );
  });

  it('has the breadcrumb the page shows, crumb for crumb', () => {
    const block = page.blocks.find((b) => b.type === 'breadcrumb');
    const list = graph.find((node) => node['@type'] === 'BreadcrumbList');
    if (!block) return expect(list).toBeUndefined();
    const items = list?.itemListElement as { position: number; name: string }[];
    expect(items.map((item) => item.name)).toEqual(
      breadcrumbTrail(path, page.name, site.breadcrumbs).map((c) => c.label),
    );
    expect(items.map((item) => item.position)).toEqual(items.map((_, i) => i + 1));
  });
});

describe('breadcrumbs of service pages', () => {
  const services = pages.filter(({ path }) => path.startsWith('/services/'));

  it.each(services.map(({ path, page }) => [path, page] as const))(
    '%s shows a breadcrumb bar and has its BreadcrumbList',
    (path, page) => {
      expect(page.blocks[0]?.type, 'first block').toBe('breadcrumb');
      const list = graphOf(path, page).find((node) => node['@type'] === 'BreadcrumbList');
      const items = list?.itemListElement as { name: string }[] | undefined;
      const trail = breadcrumbTrail(path, page.name, site.breadcrumbs).map((crumb) => crumb.label);
      expect(trail).toHaveLength(3);
      expect(items?.map((item) => item.name)).toEqual(trail);
    },
  );

  it('covers every service page', () => {
    expect(services.map(({ path }) => path)).toContain('/services/medical-detox');
    expect(services.length).toBeGreaterThanOrEqual(5);
  });
});

describe('structured data facts from the spec', () => {
  const byPath = (path: string) => {
    const entry = pages.find((p) => p.path === path);
    if (!entry) throw new Error(`no page ${path}`);
    return graphOf(path, entry.page);
  };

  it('describes the organization: 24/7 hours, region, accreditations and the 4.9 rating from 127 reviews', () => {
    const org = byPath('/').find((node) => node['@type'] === 'MedicalClinic')!;
    expect(org.telephone).toBe(site.phones.primary.tel);
    expect(org.openingHoursSpecification).toMatchObject({ opens: '00:00', closes: '23:59' });
    expect((org.address as { addressRegion: string }).addressRegion).toBe('CA');
    expect(JSON.stringify(org.hasCredential)).toContain('ASAM Level 3.7');
    expect(org.aggregateRating).toMatchObject({ ratingValue: 4.9, reviewCount: 127 });
  });

  it('prices detox at 15000-30000 over 7-10 days and residential at 45000-90000 over 30-90 days, valid 90 days', () => {
    const offers = byPath('/').filter((node) => node['@type'] === 'Offer');
    expect(offers.map((o) => [o.name, o.priceSpecification, o.eligibleDuration, o.priceValidUntil])).toEqual([
      [
        'Medical Detox',
        expect.objectContaining({ minPrice: 15000, maxPrice: 30000 }),
        expect.objectContaining({ minValue: 7, maxValue: 10, unitCode: 'DAY' }),
        '2025-04-08',
      ],
      [
        'Residential Treatment',
        expect.objectContaining({ minPrice: 45000, maxPrice: 90000 }),
        expect.objectContaining({ minValue: 30, maxValue: 90, unitCode: 'DAY' }),
        '2025-04-08',
      ],
    ]);
    expect(byPath('/').some((node) => node['@type'] === 'IndividualPhysician')).toBe(true);
  });

  it.each([
    ['/treatment/fentanyl-addiction', 30, 90, 'DAY'],
    ['/treatment/xanax-addiction', 30, 60, 'DAY'],
    ['/treatment/ambien-addiction', 30, 60, 'DAY'],
    ['/treatment/suboxone-addiction', 6, 12, 'MON'],
  ] as const)('gives %s its program duration', (path, min, max, unit) => {
    const offer = byPath(path).find((node) => node['@type'] === 'Offer');
    expect(offer?.eligibleDuration).toMatchObject({ minValue: min, maxValue: max, unitCode: unit });
  });

  it('states the success rate on the fentanyl, Xanax and benzodiazepine programs', () => {
    for (const [path, rate] of [
      ['/treatment/fentanyl-addiction', 74],
      ['/treatment/xanax-addiction', 86],
      ['/treatment/benzodiazepine-addiction', 87],
    ] as const)
      expect(String(byPath(path).find((node) => node['@type'] === 'Offer')?.description)).toContain(
        `${rate}%`,
      );
  });

  it('keeps the primary number as the organization telephone on the Tramadol page, whose text uses the second line', () => {
    const tramadol = pages.find((p) => p.path === '/treatment/tramadol-addiction')!;
    expect(tramadol.page.phoneLine).toBe('secondary');
    expect(
      byPath('/treatment/tramadol-addiction').find((n) => n['@type'] === 'MedicalClinic')?.telephone,
    ).toBe(site.phones.primary.tel);
  });

  it('names the clinical reviewer and the day only when the page carries a review record', () => {
    const { page } = pages.find(({ path }) => path === '/treatment/fentanyl-addiction')!;
    const webPage = (graph: Node[]) => graph.find((node) => node['@type'] === 'MedicalWebPage')!;
    expect(webPage(graphOf('/treatment/fentanyl-addiction', page)).reviewedBy).toBeUndefined();
    const medicalReview = { name: 'Maya Chen', credential: 'MD, Addiction Medicine', date: '2026-11-28' };
    const reviewed = webPage(graphOf('/treatment/fentanyl-addiction', { ...page, medicalReview }));
    expect(reviewed.reviewedBy).toEqual({
      '@type': 'Person',
      name: 'Maya Chen',
      hasCredential: { '@type': 'EducationalOccupationalCredential', name: 'MD, Addiction Medicine' },
    });
    expect(reviewed.lastReviewed).toBe('2026-11-28');
  });

  it('escapes < so no content can close the script element', () => {
    expect(
      jsonLd({
        '@context': 'https://schema.org',
        '@graph': [{ '@type': 'Thing', name: '</script>' }],
      } as never),
    ).not.toContain('</');
  });
});
