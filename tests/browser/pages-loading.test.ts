// How pages load and follow each other, in Debian's Chromium against the real server: moving between pages without
// a reload, fetching the next page ahead, no script while a page appears, a dropped download, a scroll kept, and the
// first paint on a slow connection.
import { describe, expect, it } from 'vitest';
import { HYDRATION_TIMEOUT_MS, openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { addressOf, close, listen } from '../../server/http/http-server.ts';
import { FIRST_SCREEN_END } from '../../renderer/head.ts';
import { pageDataFile } from '../../core/page-paths.ts';

const t = siteUnderTest();

describe('navigation', () => {
  /** The client code's entry chunk, which the page's inline loader imports (not the entry's stylesheet). */
  const isEntry = (url: string) => /^\/assets\/entry-client-[\w-]+\.js$/.test(new URL(url).pathname);

  it('moves between pages without reloading, starts each page at the top, and lands on #contact from another page', async () => {
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    await page.evaluate(() => ((window as unknown as { marker: number }).marker = 42));
    await page.mouse.wheel(0, 3000);
    await page
      .locator('#programs')
      .getByRole('link', { name: /medical detox/i })
      .first()
      .click();
    await page.waitForURL(`${t.site.url}/services/medical-detox`);
    await expect.poll(() => page.locator('h1').textContent()).toMatch(/Medical Detox/);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    await expect.poll(() => page.evaluate(() => window.scrollY)).toBe(0);
    await expect.poll(() => page.title()).toMatch(/Medical Detox/);

    await page.locator('header').getByRole('link', { name: 'Contact', exact: true }).click();
    await page.waitForURL(`${t.site.url}/#contact`);
    await expect
      .poll(() => page.locator('#contact').evaluate((el) => Math.round(el.getBoundingClientRect().top)))
      .toBeLessThan(200);
    expect(await page.evaluate(() => (window as unknown as { marker?: number }).marker)).toBe(42);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fetches the next page when a pointer rests on its link or a finger touches it, so it shows without waiting', async () => {
    /** The URL path of the data file that holds a page's document (written by the prerender). */
    const chunkOf = (path: string) => `/${pageDataFile(path)}`;
    const pathOf = (url: string) => new URL(url).pathname;

    // A mouse resting on a link.
    const desktop = await openPage(t.browser);
    await visit(desktop.page, `${t.site.url}/`);
    const detox = chunkOf('/services/medical-detox');
    const requested: string[] = [];
    desktop.page.on('request', (request) => requested.push(pathOf(request.url())));
    const detoxLink = desktop.page
      .locator('#programs')
      .getByRole('link', { name: /medical detox/i })
      .first();
    const hovered = desktop.page.waitForRequest((request) => pathOf(request.url()) === detox);
    await detoxLink.hover();
    await hovered;
    expect(desktop.page.url()).toBe(`${t.site.url}/`);
    // The click shows the page from what the hover fetched: nothing is fetched again.
    await detoxLink.click();
    await desktop.page.waitForURL(`${t.site.url}/services/medical-detox`);
    await expect.poll(() => desktop.page.locator('h1').textContent()).toMatch(/Medical Detox/);
    expect(requested.filter((path) => path === detox)).toEqual([detox]);
    expect(desktop.errors).toEqual([]);
    await desktop.context.close();

    // A finger touching a link: fetched at the touch, before it lifts.
    const phone = await openPage(t.browser, PHONE);
    await visit(phone.page, `${t.site.url}/`);
    const inpatient = chunkOf('/services/inpatient-rehab');
    const touched = phone.page.waitForRequest((request) => pathOf(request.url()) === inpatient);
    await phone.page
      .locator('#programs')
      .getByRole('link', { name: /inpatient rehab/i })
      .first()
      .dispatchEvent('touchstart');
    await touched;
    expect(phone.page.url()).toBe(`${t.site.url}/`);
    expect(phone.errors).toEqual([]);
    await phone.context.close();
  });

  it('runs no script while the page appears: fetched a moment after load, run at the first touch', async () => {
    const { page, context, errors } = await openPage(t.browser, PHONE);
    const fetched: string[] = [];
    page.on('request', (request) => fetched.push(request.url()));
    const prefetched = page.waitForRequest((request) => isEntry(request.url()));
    await page.goto(`${t.site.url}/crisis/emergency-help`, { waitUntil: 'load' });
    // Not while the page loads and paints: a moment after.
    expect(fetched.filter(isEntry)).toEqual([]);
    await prefetched;
    // Downloaded and ready, but not run: the page is the server's HTML, complete, with its first screen's CSS inline
    // and one stylesheet, shared by every page, after its first screen (core/critical-css.ts).
    await page.waitForLoadState('networkidle');
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(1);
    expect(await page.locator(`#${FIRST_SCREEN_END} + link[rel="stylesheet"]`).count()).toBe(1);
    await expect(page.getByRole('link', { name: /call/i }).first().isVisible()).resolves.toBe(true);
    const heading = await page.locator('h1').boundingBox();
    await page.touchscreen.tap((heading?.x ?? 0) + 10, (heading?.y ?? 0) + 10);
    await page.locator('html[data-hydrated]').waitFor({ state: 'attached' });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('tries the download again at the next touch when the signal dropped the first time', async () => {
    const { page, context } = await openPage(t.browser, PHONE);
    let dropped = 0;
    await page.route('**/assets/*.js', (route) =>
      isEntry(route.request().url()) && dropped++ === 0
        ? route.abort('internetdisconnected')
        : route.continue(),
    );
    await page.goto(`${t.site.url}/services/medical-detox`, { waitUntil: 'load' });
    // The first touch starts the download before the delayed prefetch does, and the signal drops it.
    const failed = page.waitForEvent('requestfailed', (request) => isEntry(request.url()));
    await page.keyboard.press('Shift');
    await failed;
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    // The page still works as the server sent it, and a later touch tries again (pressed until it has: the loader
    // listens again once the failure has reached the page, a moment after the browser reports it; then the page
    // takes as long to hydrate as any, which on a loaded machine is seconds, not vitest's default second of polling).
    await expect(page.getByRole('link', { name: /call/i }).first().isVisible()).resolves.toBe(true);
    await expect
      .poll(
        async () => {
          await page.keyboard.press('Shift');
          return page.locator('html[data-hydrated]').count();
        },
        { timeout: HYDRATION_TIMEOUT_MS, interval: 250 },
      )
      .toBe(1);
    expect(dropped).toBeGreaterThanOrEqual(2);
    await context.close();
  });

  it('keeps where a visitor has scrolled to before the scripts arrive', async () => {
    const { page, context, errors } = await openPage(t.browser, PHONE);
    let scrolled: () => void = () => {};
    const visitorScrolled = new Promise<void>((resolve) => (scrolled = resolve));
    // A slow phone: the scripts arrive only after the visitor has started reading further down.
    await page.route('**/assets/*.js', async (route) => {
      await visitorScrolled;
      await route.continue();
    });
    // The visitor scrolls as soon as the server's HTML is there, before anything else has arrived.
    await page.goto(`${t.site.url}/services/medical-detox`, { waitUntil: 'commit' });
    await page.locator('footer').waitFor({ state: 'attached' });
    await page.evaluate(() => window.scrollTo(0, 900));
    scrolled();
    // The floating widget appears once the page is interactive; the position must not have been reset to the top.
    await expect
      .poll(() => page.locator('.floating-widget').getAttribute('data-visible'), { timeout: 10_000 })
      .toBe('true');
    await page.waitForLoadState('networkidle');
    expect(await page.evaluate(() => window.scrollY)).toBe(900);
    expect(errors).toEqual([]);
    await context.close();
  });
});
describe('first paint on a slow connection', () => {
  it('waits until the header and the first block are parsed whole, so nothing painted moves when the rest arrives', async () => {
    // The page as a slow network delivers it: the first part (header and half the hero), then the rest 800 ms later.
    const html = await (await fetch(`${t.site.url}/treatment/fentanyl-addiction`)).text();
    const split = html.indexOf('</header>') + '</header>'.length + 400;
    expect(split).toBeLessThan(html.indexOf(`id="${FIRST_SCREEN_END}"`));
    const slow = await listen(
      (_req, res) => {
        res.writeHead(200, { 'Content-Type': 'text/html; charset=utf-8' });
        res.write(html.slice(0, split));
        setTimeout(() => res.end(html.slice(split)), 800);
      },
      0,
      '127.0.0.1',
    );
    const { page, context } = await openPage(t.browser, PHONE);
    try {
      // What the document held at the first frame the browser rendered.
      await page.addInitScript((marker) => {
        requestAnimationFrame(() => {
          (window as unknown as { firstFrame: object }).firstFrame = {
            header: document.querySelector('header') !== null,
            firstScreenParsed: document.getElementById(marker) !== null,
          };
        });
      }, FIRST_SCREEN_END);
      await page.goto(addressOf(slow), { waitUntil: 'load' });
      await expect(
        page.evaluate(() => (window as unknown as { firstFrame: object }).firstFrame),
      ).resolves.toEqual({
        header: true,
        firstScreenParsed: true,
      });
    } finally {
      await context.close();
      await close(slow);
    }
  });
});
