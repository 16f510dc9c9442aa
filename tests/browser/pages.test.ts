// What each page shows a visitor, in Debian's Chromium against the real server: the HTML before any script, every
// page's first screen on a phone, the home page's sections, tables on a phone, the not-found page and the colour
// scheme. The menus, the FAQ and the keyboard are in pages-controls.test.ts; loading and moving between pages in
// pages-loading.test.ts.
import { describe, expect, it } from 'vitest';
import { openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { ROOT } from '../../content/paths.ts';
import { pagePaths } from '../../core/prerender/content.ts';
import site from '../../site/site.json' with { type: 'json' };

const pages = pagePaths(ROOT).map((path) => ({ path }));

const t = siteUnderTest();

describe('server-rendered HTML', () => {
  it('is complete before any script runs: text, head tags, tel links and every home anchor', async () => {
    const response = await fetch(`${t.site.url}/`);
    expect(response.status).toBe(200);
    const html = await response.text();
    expect(html).toMatch(/<title>[^<]+<\/title>/);
    expect(html).toContain('<meta name="description"');
    expect(html).toContain('<link rel="canonical" href="https://www.example.com"');
    expect(html).toContain('property="og:title"');
    expect(html).toContain(`href="tel:${site.phones.primary.tel}"`);
    for (const anchor of [
      'programs',
      'services',
      'contact',
      'about',
      'addictions',
      'facility',
      'expert-team',
      'facility-experience',
      'why-choose-us',
    ])
      expect(html, `#${anchor}`).toContain(`id="${anchor}"`);
    expect(html.match(/<h1[\s>]/g)).toHaveLength(1);
  });

  it('shows the home page with JavaScript disabled: sections, FAQ answers and the form', async () => {
    const { page, context } = await openPage(t.browser, {
      viewport: { width: 390, height: 844 },
      javaScriptEnabled: false,
    });
    await page.goto(`${t.site.url}/`);
    await expect(page.locator('h1').textContent()).resolves.toBeTruthy();
    expect(await page.locator('#addictions h3').allTextContents()).toEqual([
      'Alcohol',
      'Opioids',
      'Benzodiazepines',
      'Stimulants',
      'Prescription Drugs',
      'Dual Diagnosis',
    ]);
    expect(await page.locator('.faq-item').count()).toBe(8);
    await page.locator('.faq-item summary').first().click();
    await expect(page.locator('.faq-item').first().getAttribute('open')).resolves.toBe('');
    await expect(page.locator('#contact form[method="post"]').count()).resolves.toBe(2);
    await context.close();
  });
});

describe.each(pages.map((page) => page.path))('page %s', (path) => {
  it('answers 200 with one h1, a call link of its own on the first screen, no console errors and no sideways scrolling on a phone', async () => {
    const { page, context, errors } = await openPage(t.browser, PHONE);
    const response = await visit(page, `${t.site.url}${path}`);
    expect(response?.status()).toBe(200);
    await expect(page.locator('h1').count()).resolves.toBe(1);
    const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
    expect(overflow).toBeLessThanOrEqual(0);
    // Besides the header's: the page's first call link (the hero's button, or a number in its text) is whole on the
    // first screen, so a visitor need not scroll to find how to call.
    const firstCall = await page.locator('main a[href^="tel:"]').first().boundingBox();
    expect(firstCall!.y + firstCall!.height).toBeLessThanOrEqual(PHONE.viewport!.height);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('home page', () => {
  it('renders its sections in the order of the spec, without console errors', async () => {
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const ids = await page.locator('main > section[id]').evaluateAll((sections) => sections.map((s) => s.id));
    expect(ids).toEqual([
      'programs',
      'addictions',
      'why-choose-us',
      'expert-team',
      'facility-experience',
      'contact',
    ]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows each addiction card\'s first three links, a "+N more treatments" note and Learn More to its first link', async () => {
    const { page, context } = await openPage(t.browser);
    await page.goto(`${t.site.url}/`);
    const cards = page.locator('#addictions .content-card');
    await expect(cards.count()).resolves.toBe(6);
    const opioids = cards.nth(1);
    expect(await opioids.locator('.link-list a').count()).toBe(3);
    await expect(opioids.textContent()).resolves.toMatch(/\+4 more treatments/);
    await expect(opioids.getByRole('link', { name: /Learn More/ }).getAttribute('href')).resolves.toBe(
      '/treatment/heroin-addiction',
    );
    await context.close();
  });
});
describe('table on a phone', () => {
  it('labels each value with its column, and a screen reader hears each cell once', async () => {
    const { page, context } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/treatment/benzodiazepine-addiction`);
    const row = page.locator('.content-table tbody tr').first();
    // The column name shows through CSS from data-label (blocks/table) and is left out of the cell's name.
    await expect(row.locator('td').first().getAttribute('data-label')).resolves.toBe('Half-Life');
    await expect(row.ariaSnapshot()).resolves.toContain('cell "Short"');
    await context.close();
  });
});
describe('not found', () => {
  it('answers an unknown path with 404, the not-found page and a link home, and logs the path', async () => {
    const response = await fetch(`${t.site.url}/no-such-page`);
    expect(response.status).toBe(404);
    const { page, context, messages, errors } = await openPage(t.browser);
    const answer = await visit(page, `${t.site.url}/no-such-page`);
    expect(answer?.status()).toBe(404);
    await expect(page.locator('main').textContent()).resolves.toMatch(/404.*Oops! Page not found/s);
    await expect(
      page.getByRole('link', { name: site.notFound.homeLabel }).getAttribute('href'),
    ).resolves.toBe('/');
    expect(messages.some((m) => m.includes('/no-such-page'))).toBe(true);
    // The browser reports the 404 status of the document itself as a console error; nothing else may appear.
    expect(errors.filter((e) => !e.includes('404'))).toEqual([]);
    await context.close();
  });
});

describe('colour scheme', () => {
  it('follows the system dark scheme', async () => {
    const { page, context } = await openPage(t.browser, {
      viewport: { width: 1366, height: 900 },
      colorScheme: 'dark',
    });
    await page.goto(`${t.site.url}/`);
    await expect(page.locator('html').getAttribute('data-mantine-color-scheme')).resolves.toBe('dark');
    // The hero's title stands out from the soft grey text in the strongest colour of the scheme, as it does in light.
    const colourOf = (selector: string) =>
      page
        .locator(selector)
        .first()
        .evaluate((element) => getComputedStyle(element).color);
    await expect(colourOf('.hero-title')).resolves.toBe('rgb(255, 255, 255)');
    await expect(colourOf('.hero-text')).resolves.toBe('rgb(201, 201, 201)');
    await context.close();
  });
});
