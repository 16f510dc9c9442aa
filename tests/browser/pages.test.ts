// What a visitor sees on the built site, in Debian's Chromium against the real server.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { HYDRATION_TIMEOUT_MS, openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { addressOf, close, listen } from '../../server/http/http-server.ts';
import { FIRST_SCREEN_END } from '../../renderer/head.ts';
import { pages } from '../../renderer/router.tsx';
import site from '../../site/site.json' with { type: 'json' };

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
    await expect(page.locator('#contact form[method="post"]').count()).resolves.toBe(1);
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

describe('FAQ accordion', () => {
  it('opens one answer at a time, collapses, and moves focus with arrows, Home and End', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const headers = page.locator('.faq-item summary');
    const items = page.locator('.faq-item');
    await headers.nth(0).click();
    await headers.nth(2).click();
    expect(await items.evaluateAll((all) => all.map((d) => (d as HTMLDetailsElement).open))).toEqual([
      false,
      false,
      true,
      false,
      false,
      false,
      false,
      false,
    ]);
    await headers.nth(2).click();
    expect(await items.evaluateAll((all) => all.filter((d) => (d as HTMLDetailsElement).open).length)).toBe(
      0,
    );

    await headers.nth(0).focus();
    const focusedIndex = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.faq-item summary')].indexOf(document.activeElement as Element),
      );
    await page.keyboard.press('ArrowDown');
    expect(await focusedIndex()).toBe(1);
    await page.keyboard.press('End');
    expect(await focusedIndex()).toBe(7);
    await page.keyboard.press('ArrowDown');
    expect(await focusedIndex()).toBe(0);
    await page.keyboard.press('ArrowUp');
    expect(await focusedIndex()).toBe(7);
    await page.keyboard.press('Home');
    expect(await focusedIndex()).toBe(0);
    await page.keyboard.press('Enter');
    expect(await items.first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await context.close();
  });
});

describe('header', () => {
  it('opens desktop menus on hover and on keyboard focus', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const programs = page.locator('.nav-menu').nth(0);
    await expect(programs.locator('.nav-panel').isVisible()).resolves.toBe(false);
    await programs.locator('.nav-trigger').hover();
    await expect(programs.getByRole('link', { name: /Medical Detox/ }).isVisible()).resolves.toBe(true);
    await expect(
      programs.getByRole('link', { name: 'Schedule Free Consultation' }).getAttribute('href'),
    ).resolves.toBe('/#contact');
    await page.mouse.move(0, 600);
    const treatments = page.locator('.nav-menu').nth(1);
    await treatments.locator('.nav-trigger').focus();
    await expect(treatments.getByRole('link', { name: 'Suboxone Addiction' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole('link', { name: 'Emergency Help' }).getAttribute('href')).resolves.toBe(
      '/crisis/emergency-help',
    );
    // Its name carries the number it calls, for a screen reader; the visible label stays short.
    await expect(
      page.getByRole('link', { name: `Call 24/7, ${site.phones.primary.display}` }).getAttribute('href'),
    ).resolves.toBe(`tel:${site.phones.primary.tel}`);
    await context.close();
  });

  it('closes a desktop menu with Escape, giving focus back to its button, and once a link in it is chosen', async () => {
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const treatments = page.locator('.nav-menu').nth(1);
    const panel = treatments.locator('.nav-panel');
    await treatments.locator('.nav-trigger').focus();
    await page.keyboard.press('Tab');
    await expect(panel.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect(panel.isVisible()).resolves.toBe(false);
    await expect(
      page.evaluate(() => document.activeElement?.classList.contains('nav-trigger')),
    ).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(panel.isVisible()).resolves.toBe(true);

    await treatments.locator('.nav-trigger').hover();
    await treatments.getByRole('link', { name: 'Xanax Addiction' }).click();
    await page.waitForURL(`${t.site.url}/treatment/xanax-addiction`);
    await page.mouse.move(600, 700);
    await expect.poll(() => panel.isVisible()).toBe(false);
    // It opens again for the pointer.
    await treatments.locator('.nav-trigger').hover();
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits on tablets and laptops: no sideways scroll, the call and emergency buttons whole on one line', async () => {
    for (const width of [768, 1024, 1199, 1280]) {
      const { page, context } = await openPage(t.browser, { viewport: { width, height: 768 } });
      await page.goto(`${t.site.url}/`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      for (const name of ['Call 24/7', 'Emergency Help']) {
        const box = (await page.locator('.nav-actions').getByRole('link', { name }).first().boundingBox())!;
        expect(box.x + box.width, `${name} at ${width} px`).toBeLessThanOrEqual(width);
        expect(box.height, `${name} at ${width} px`).toBeLessThanOrEqual(44);
      }
      await context.close();
    }
  });

  it('has a phone menu with three independent sections, a height limit, and closes when a link is chosen', async () => {
    const { page, context, errors } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/`);
    await page.getByLabel(site.labels.openMenu).click();
    const panel = page.locator('.mobile-panel');
    await expect(panel.isVisible()).resolves.toBe(true);
    const maxHeight = await panel.evaluate((el) => getComputedStyle(el).maxHeight);
    expect(maxHeight).toBe(`${844 - 120}px`);
    const sections = panel.locator('.mobile-section');
    await expect(sections.count()).resolves.toBe(3);
    await sections.nth(0).locator('summary').click();
    await sections.nth(2).locator('summary').click();
    expect(await sections.evaluateAll((all) => all.map((d) => (d as HTMLDetailsElement).open))).toEqual([
      true,
      false,
      true,
    ]);
    await page.keyboard.press('Escape');
    await expect(panel.isVisible()).resolves.toBe(false);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
      site.labels.openMenu,
    );
    await page.keyboard.press('Enter');
    await expect(panel.isVisible()).resolves.toBe(true);
    await panel.getByRole('link', { name: 'Medical Detox' }).click();
    await page.waitForURL(`${t.site.url}/services/medical-detox`);
    await expect(panel.isVisible()).resolves.toBe(false);
    expect(errors).toEqual([]);
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

describe('keyboard focus', () => {
  it('on a phone, never lands under the sticky header or the bottom bar', async () => {
    for (const path of ['/crisis/emergency-help', '/']) {
      const { page, context } = await openPage(t.browser, PHONE);
      await visit(page, `${t.site.url}${path}`);
      const hidden: string[] = [];
      for (let step = 0; step < 60; step++) {
        await page.keyboard.press('Tab');
        // Measured once the browser has laid out what the focus scrolled to.
        const where = await page.evaluate(async () => {
          await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
          const focused = document.activeElement as HTMLElement | null;
          if (!focused || focused === document.body) return null;
          if (focused.closest('.skip-link, .site-header, .floating-widget, dialog')) return null;
          const box = focused.getBoundingClientRect();
          const header = document.querySelector('.site-header')!.getBoundingClientRect();
          const bar = document.querySelector('.widget-bar')!;
          const barTop = bar.checkVisibility({ visibilityProperty: true })
            ? bar.getBoundingClientRect().top
            : window.innerHeight;
          return box.top < header.bottom || box.bottom > barTop
            ? `${focused.tagName} "${focused.textContent?.trim().slice(0, 40)}" at ${Math.round(box.top)}-${Math.round(box.bottom)}`
            : null;
        });
        if (where) hidden.push(where);
      }
      expect(hidden, path).toEqual([]);
      await context.close();
    }
  });
});

describe('navigation', () => {
  /** The client code's entry chunk, which the page's inline loader imports. */
  const isEntry = (url: string) => new URL(url).pathname.startsWith('/assets/entry-client-');

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
    const manifest = JSON.parse(
      readFileSync(join(import.meta.dirname, '../../dist/client/.vite/manifest.json'), 'utf8'),
    ) as Record<string, { file: string; src?: string }>;
    /** The URL path of the chunk that holds a page's document. */
    const chunkOf = (source: string) =>
      `/${Object.values(manifest).find((entry) => entry.src === source)?.file ?? `(no chunk for ${source})`}`;
    const pathOf = (url: string) => new URL(url).pathname;

    // A mouse resting on a link.
    const desktop = await openPage(t.browser);
    await visit(desktop.page, `${t.site.url}/`);
    const detox = chunkOf('pages/services/medical-detox.json');
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
    const inpatient = chunkOf('pages/services/inpatient-rehab.json');
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
    // Downloaded and ready, but not run: the page is the server's HTML, complete, with its CSS inline.
    await page.waitForLoadState('networkidle');
    expect(await page.locator('html[data-hydrated]').count()).toBe(0);
    expect(await page.locator('link[rel="stylesheet"]').count()).toBe(0);
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
    await context.close();
  });
});
