// The prerender as a library: the built code (dist/, from npm run build) renders whatever content folder it is given,
// and neither bundle holds any content of its own.
import { cpSync, existsSync, readdirSync, readFileSync, rmSync, writeFileSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import type { Page, ProgramCatalogue, RedirectTable, Site } from '../../generated/content-types.ts';
import { useTempDir } from '../../tests/helpers/temp-dir.ts';
import type { PageData } from '../../renderer/medical-review.ts';
import { pageDataFile } from '../page-paths.ts';
import { loadPages } from './content.ts';
import { prerenderSite } from './index.ts';

const DIST = join(ROOT, 'dist');
const REVIEW = { name: 'Maya Chen', credential: 'MD, Addiction Medicine', date: '2026-11-28' };
const readJson = <T>(file: string) => JSON.parse(readFileSync(file, 'utf8')) as T;
const filesUnder = (dir: string) =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name).slice(dir.length + 1))
    .sort();

if (!existsSync(join(DIST, 'server', 'entry-server.js')))
  throw new Error('These tests need a build: npm run build');

/** A copy of the checkout's content (pages/ and site/) in `root`, to change. */
function copyContent(root: string): void {
  for (const folder of ['pages', 'site']) cpSync(join(ROOT, folder), join(root, folder), { recursive: true });
}

describe('prerenderSite', () => {
  const temp = useTempDir('prerender-');

  it('renders the content folder it is given with the built code as it is', async () => {
    const content = join(temp(), 'content');
    copyContent(content);
    const detoxFile = join(content, 'pages', 'services', 'medical-detox.json');
    const detox = readJson<Page>(detoxFile);
    writeFileSync(detoxFile, JSON.stringify({ ...detox, title: 'Detox, in words only this test wrote' }));
    const siteFile = join(content, 'site', 'site.json');
    const site = readJson<Site>(siteFile);
    writeFileSync(
      siteFile,
      JSON.stringify({ ...site, brand: { ...site.brand, name: 'Harbor Test Recovery' } }),
    );
    rmSync(join(content, 'pages', 'privacy-policy.json'));
    const out = join(temp(), 'site');

    const { pages } = await prerenderSite({
      codeDir: DIST,
      contentRoot: content,
      outDir: out,
      siteUrl: 'https://test.example.org',
      reviews: { '/services/medical-detox': REVIEW },
    });

    expect(pages).toBe(loadPages(content).size);
    const html = readFileSync(join(out, 'services', 'medical-detox.html'), 'utf8');
    expect(html).toContain('<title>Detox, in words only this test wrote</title>');
    expect(html).toContain('<link rel="canonical" href="https://test.example.org/services/medical-detox"/>');
    expect(html).toContain('Harbor Test Recovery');
    for (const suffix of ['.br', '.gz'])
      expect(existsSync(join(out, `services/medical-detox.html${suffix}`))).toBe(true);
    // The page a visitor navigates to is read from its data file; a page no longer in the content is gone.
    expect(readJson<Page>(join(out, pageDataFile('/services/medical-detox'))).title).toBe(
      'Detox, in words only this test wrote',
    );
    // The review the publish gives, and only on its page: the line, its structured data and the page's data file.
    expect(html).toContain(
      'Medically reviewed by Maya Chen, MD, Addiction Medicine on <time dateTime="2026-11-28">November 28, 2026</time>',
    );
    expect(html).toContain('"reviewedBy":{"@type":"Person","name":"Maya Chen"');
    expect(html).toContain('"lastReviewed":"2026-11-28"');
    expect(readJson<PageData>(join(out, pageDataFile('/services/medical-detox'))).medicalReview).toEqual(
      REVIEW,
    );
    const other = readFileSync(join(out, 'treatment', 'fentanyl-addiction.html'), 'utf8');
    expect(other).not.toContain('Medically reviewed');
    expect(other).not.toContain('reviewedBy');
    expect(existsSync(join(out, 'privacy-policy.html'))).toBe(false);
    expect(existsSync(join(out, pageDataFile('/privacy-policy')))).toBe(false);
    expect(readFileSync(join(out, '404.html'), 'utf8')).toContain(site.notFound.title);
    // The site data the page names, content-hashed, with this content's documents and origin.
    const siteDataUrl = /\/_data\/site\.[A-Za-z0-9_-]+\.json/.exec(html)?.[0];
    expect(siteDataUrl).toBeDefined();
    const siteData = readJson<{ site: Site; siteUrl: string }>(join(out, siteDataUrl!));
    expect(siteData.site.brand.name).toBe('Harbor Test Recovery');
    expect(siteData.siteUrl).toBe('https://test.example.org');
    expect(readFileSync(join(out, 'sitemap.xml'), 'utf8')).toContain(
      'https://test.example.org/services/medical-detox',
    );
    expect(readFileSync(join(out, 'robots.txt'), 'utf8')).toContain('https://test.example.org/sitemap.xml');
    expect(existsSync(join(out, '_redirects'))).toBe(true);
    expect(Object.keys(readJson<Record<string, string[]>>(join(out, '.csp.json')))).toContain(
      'services/medical-detox.html',
    );
    // The code is copied byte for byte: the same assets, whatever the content.
    const assets = filesUnder(join(DIST, 'client', 'assets'));
    expect(filesUnder(join(out, 'assets'))).toEqual(assets);
    for (const file of assets)
      expect(
        readFileSync(join(out, 'assets', file)).equals(readFileSync(join(DIST, 'client', 'assets', file))),
        file,
      ).toBe(true);
    expect(existsSync(join(out, 'favicon.svg'))).toBe(true);
  });

  it("states a form's promise in words from its promiseMinutes: page, structured data and search preview", async () => {
    const content = join(temp(), 'content');
    copyContent(content);
    const formFile = join(content, 'site', 'forms', 'insurance-verification.json');
    writeFileSync(formFile, JSON.stringify({ ...readJson<object>(formFile), promiseMinutes: 60 }));
    const out = join(temp(), 'site');
    await prerenderSite({
      codeDir: DIST,
      contentRoot: content,
      outDir: out,
      siteUrl: 'https://test.example.org',
    });

    const html = readFileSync(join(out, 'insurance-verification.html'), 'utf8');
    // The form block's intro and points, an FAQ answer and its JSON-LD, the description and the share text.
    expect(html).toContain('We offer free, confidential verification within 1 hour or less.');
    expect(html).toContain('<strong>Free, confidential verification</strong> within 1 hour or less');
    expect(html).toContain(
      'Our insurance specialists will contact you within 1 hour or less with your benefit',
    );
    expect(html).toContain('"text":"Our insurance specialists will contact you within 1 hour or less');
    expect(html).toContain('Free, confidential verification within 1 hour or less, with no obligation');
    expect(html).toContain(
      '<meta property="og:description" content="Find out what your plan covers for detox and treatment. Free, confidential verification within 1 hour or less."/>',
    );
    // The hero's subtitle and a timeline step's duration: plain lines, made from the same value.
    expect(html).toContain('>Free, confidential verification within 1 hour or less</p>');
    expect(html).toContain('>Within 1 hour or less</span>');
    expect(readFileSync(join(out, 'services', 'medical-detox.html'), 'utf8')).toContain(
      'We check your benefits for free and confidentially, and answer within 1 hour.',
    );
    // No token is ever shown as typed (the router's copy of the page document for hydration holds them as written).
    for (const file of filesUnder(out).filter((name) => name.endsWith('.html'))) {
      const shown = readFileSync(join(out, file), 'utf8').replace(
        /<script data-tsr-stream-part[^]*?<\/script>/g,
        '',
      );
      expect(shown, file).not.toMatch(/\{promise/);
    }
  });

  it('throws, naming the page, when a page fails to render, and leaves no partial site', async () => {
    const content = join(temp(), 'content');
    copyContent(content);
    const faqFile = join(content, 'pages', 'privacy-policy.json');
    writeFileSync(faqFile, JSON.stringify({ ...readJson<Page>(faqFile), blocks: null }));
    const out = join(temp(), 'site');
    await expect(prerenderSite({ codeDir: DIST, contentRoot: content, outDir: out })).rejects.toThrow(
      /The prerender failed:\n\/privacy-policy: /,
    );
    expect(readdirSync(out)).toEqual([]);
  });

  it('refuses a folder that is not empty and a code folder that was not built, with a message', async () => {
    const out = join(temp(), 'site');
    mkdirSync(out);
    writeFileSync(join(out, 'index.html'), 'an older site');
    await expect(prerenderSite({ codeDir: DIST, contentRoot: ROOT, outDir: out })).rejects.toThrow(
      /not empty/,
    );
    await expect(
      prerenderSite({ codeDir: join(temp(), 'nothing'), contentRoot: ROOT, outDir: join(temp(), 'other') }),
    ).rejects.toThrow(/not a built code folder/);
    await expect(
      prerenderSite({
        codeDir: DIST,
        contentRoot: join(temp(), 'no-content'),
        outDir: join(temp(), 'third'),
      }),
    ).rejects.toThrow(/site\.json/);
  });
});

describe('the built bundles', () => {
  /** Every file of the client and render bundles, as text. */
  const bundles = [
    ...filesUnder(join(DIST, 'client', 'assets')).map((file) => join(DIST, 'client', 'assets', file)),
    ...filesUnder(join(DIST, 'server')).map((file) => join(DIST, 'server', file)),
  ].filter((file) => /\.(js|css)$/.test(file));

  it('hold no content: no module of pages/ or site/, and no sentence of a document', () => {
    const manifest = readJson<Record<string, { src?: string }>>(
      join(DIST, 'client', '.vite', 'manifest.json'),
    );
    expect(Object.values(manifest).filter((chunk) => /^(pages|site)\//.test(chunk.src ?? ''))).toEqual([]);
    expect(bundles.length).toBeGreaterThan(3);
    const site = readJson<Site>(join(ROOT, 'site', 'site.json'));
    const programs = readJson<ProgramCatalogue>(join(ROOT, 'site', 'programs.json'));
    const redirects = readJson<RedirectTable>(join(ROOT, 'site', 'redirects.json'));
    const sentences = [
      ...[...loadPages(ROOT).values()].map((page) => page.description),
      site.brand.name,
      site.phones.primary.display,
      ...programs.programs.map((program) => program.description),
      ...redirects.redirects.flatMap((rule) => rule.from),
    ];
    const found = bundles.flatMap((file) => {
      const text = readFileSync(file, 'utf8');
      return sentences
        .filter((sentence) => text.includes(sentence))
        .map((sentence) => `${file}: ${sentence}`);
    });
    expect(found).toEqual([]);
  });
});
