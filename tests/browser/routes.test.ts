// Redirects, the error screen, the sitemap and robots.txt, against the built site and the real server.
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { spawnSync } from 'node:child_process';
import { openPage, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { redirectRules } from '../../core/redirects.ts';
import { ROOT } from '../../content/paths.ts';
import { pagePaths } from '../../core/prerender/content.ts';
import type { RedirectTable } from '../../generated/content-types.ts';
import table from '../../site/redirects.json' with { type: 'json' };
import site from '../../site/site.json' with { type: 'json' };

const pages = pagePaths(ROOT).map((path) => ({ path }));

const t = siteUnderTest();
const rules = redirectRules(table as RedirectTable);

describe('redirects', () => {
  it.each(rules.map((rule) => [rule.from, rule.to]))('%s and %s/ answer 301 to %s', async (from, to) => {
    for (const path of [from, `${from}/`]) {
      const response = await fetch(`${t.site.url}${path}`, { redirect: 'manual' });
      expect(response.status, path).toBe(301);
      expect(response.headers.get('location'), path).toBe(to);
    }
  });

  it('lands on the target page, and in-site navigation to an old address replaces the history entry', async () => {
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/rehab`);
    expect(page.url()).toBe(`${t.site.url}/services/inpatient-rehab`);

    await visit(page, `${t.site.url}/`);
    await page.locator('.nav-menu').nth(0).locator('.nav-trigger').hover();
    await page
      .getByRole('link', { name: /Executive Detox/ })
      .first()
      .click();
    await page.waitForURL(`${t.site.url}/services/medical-detox`);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/Medical Detox/);
    await page.goBack();
    await page.waitForURL(`${t.site.url}/`);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('error screen', () => {
  it('shows the apology, a call link and Try Again that recovers, when a page fails to render', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    // The page's data file is replaced by a document that fails to render (no blocks) until the test lets it through.
    let recovered = false;
    await page.route('**/_data/pages/services/medical-detox.json', (route) =>
      route.fulfill({
        contentType: 'application/json',
        body: JSON.stringify(
          recovered
            ? {
                name: 'Medical Detox',
                blocks: [{ type: 'hero', heading: 'Recovered page', callLabel: 'Call {phone}' }],
              }
            : { name: 'Medical Detox', blocks: null },
        ),
      }),
    );
    await page
      .locator('#programs')
      .getByRole('link', { name: /medical detox/i })
      .first()
      .click();
    await page.getByText(site.errorScreen.heading).waitFor();
    await expect(page.getByText(site.errorScreen.text).count()).resolves.toBe(1);
    await expect(
      page.getByRole('link', { name: site.errorScreen.callLabel }).getAttribute('href'),
    ).resolves.toBe(`tel:${site.phones.primary.tel}`);
    recovered = true;
    await page.getByRole('button', { name: site.errorScreen.retryLabel }).click();
    await page.getByRole('heading', { level: 1, name: 'Recovered page' }).waitFor();
    await context.close();
  });
});

describe('sitemap and robots', () => {
  it('lists every page by its canonical URL with the spec values, and is valid against the sitemap schema', async () => {
    const response = await fetch(`${t.site.url}/sitemap.xml`);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/xml/);
    const xml = await response.text();
    const schema = join(import.meta.dirname, '../../node_modules/sitemap/schema/sitemap.xsd');
    const lint = spawnSync('xmllint', ['--noout', '--schema', schema, '-'], { input: xml, encoding: 'utf8' });
    expect(lint.stderr.trim()).toBe('- validates');
    expect(lint.status).toBe(0);
    const urls = [...xml.matchAll(/<loc>([^<]+)<\/loc>/g)].map((m) => m[1]);
    expect(urls).toHaveLength(pages.length);
    for (const { path } of pages)
      expect(urls).toContain(path === '/' ? `${site.url}/` : `${site.url}${path}`);
    for (const rule of rules) expect(urls).not.toContain(`${site.url}${rule.from}`);
    expect([...xml.matchAll(/<lastmod>([^<]+)<\/lastmod>/g)].every((m) => m[1] === '2025-01-08')).toBe(true);
    for (const m of xml.matchAll(/<priority>([^<]+)<\/priority>/g))
      expect(['1.0', '0.9', '0.8', '0.7', '0.3']).toContain(m[1]);
    for (const m of xml.matchAll(/<changefreq>([^<]+)<\/changefreq>/g))
      expect(['weekly', 'monthly', 'yearly']).toContain(m[1]);
  });

  it('serves robots.txt allowing everything and naming the sitemap', async () => {
    const response = await fetch(`${t.site.url}/robots.txt`);
    expect(response.status).toBe(200);
    const text = await response.text();
    expect(text).toContain('User-agent: *\nAllow: /');
    expect(text).toContain(`Sitemap: ${site.url}/sitemap.xml`);
  });
});
