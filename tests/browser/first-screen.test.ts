// The first screen in the first round trip (docs/decisions/2026-11-28-first-screen-first-round-trip.md): the head
// holds only the first screen's CSS, and the whole stylesheet is linked after the first screen (the header, the first
// block and a breadcrumb trail above it). On a slowed network, with that stylesheet held back, a visitor sees the
// header and the first block at once, and one who scrolls to the bottom as soon as the page is there sees nothing move
// and no block without its CSS, before or after it arrives.
import { describe, expect, it } from 'vitest';
import { openPage, PHONE } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { FIRST_SCREEN_END } from '../../renderer/head.ts';

const t = siteUnderTest();

/** The pages the audit measures (scripts/audit.ts). */
const AUDITED = ['/', '/services/medical-detox', '/treatment/fentanyl-addiction', '/crisis/emergency-help'];
/** How long the stylesheet is held back: a slow phone's extra round trips, and more. */
const STYLESHEET_DELAY_MS = 1500;

type Seen = { shifts: number; unstyled: string[]; frames: number };

describe('the first screen and the rest of the CSS', () => {
  it.each(AUDITED)(
    '%s shows its first screen before its stylesheet arrives; scrolled to the bottom at once, nothing moves and no block shows unstyled',
    async (path) => {
      const { page, context, errors } = await openPage(t.browser, PHONE);
      try {
        // A slow mobile network: 150 ms of latency, 1.6 Mbit/s down.
        const cdp = await context.newCDPSession(page);
        await cdp.send('Network.enable');
        await cdp.send('Network.emulateNetworkConditions', {
          offline: false,
          latency: 150,
          downloadThroughput: 200_000,
          uploadThroughput: 90_000,
        });
        let stylesheetAsked: () => void = () => {};
        const stylesheetRequested = new Promise<void>((resolve) => (stylesheetAsked = resolve));
        let release: () => void = () => {};
        const released = new Promise<void>((resolve) => (release = resolve));
        await page.route('**/assets/*.css', async (route) => {
          stylesheetAsked();
          await released;
          await route.continue();
        });
        // Every frame: the layout shifts so far, and any element after the first screen that is painted in the
        // viewport while the stylesheet is not in.
        await page.addInitScript((marker) => {
          const seen: Seen = { shifts: 0, unstyled: [], frames: 0 };
          (window as unknown as { seen: Seen }).seen = seen;
          new PerformanceObserver((list) => {
            for (const entry of list.getEntries())
              seen.shifts += (entry as unknown as { value: number }).value;
          }).observe({ type: 'layout-shift', buffered: true });
          const check = () => {
            seen.frames++;
            // Wherever the link is: anything after the first screen's end is checked while the sheet is not in.
            const end = document.getElementById(marker);
            const link = document.querySelector<HTMLLinkElement>('link[data-deferred-css]');
            if (end && !link?.sheet) {
              for (const element of document.querySelectorAll('body *')) {
                if (!(end.compareDocumentPosition(element) & Node.DOCUMENT_POSITION_FOLLOWING)) continue;
                if (element === link) continue;
                const box = element.getBoundingClientRect();
                const inView = box.bottom > 0 && box.top < innerHeight && box.width > 0 && box.height > 0;
                if (inView && element.checkVisibility())
                  seen.unstyled.push(`${element.tagName.toLowerCase()}.${element.className}`);
              }
            }
            requestAnimationFrame(check);
          };
          requestAnimationFrame(check);
        }, FIRST_SCREEN_END);

        await page.goto(`${t.site.url}${path}`, { waitUntil: 'commit' });
        await stylesheetRequested;
        // The header and the first block are painted while the stylesheet is still on its way.
        const lead = page.locator('main h1').first();
        await expect.poll(() => lead.isVisible(), { timeout: 10_000 }).toBe(true);
        await expect
          .poll(() => page.evaluate(() => performance.getEntriesByName('first-contentful-paint').length))
          .toBe(1);
        const heading = await lead.boundingBox();
        expect(heading?.y).toBeLessThan(PHONE.viewport!.height);
        expect(heading?.width).toBeGreaterThan(100);

        // The visitor flicks to the bottom again and again, before the stylesheet arrives and after.
        const flick = () => page.evaluate(() => window.scrollTo(0, document.documentElement.scrollHeight));
        const until = Date.now() + STYLESHEET_DELAY_MS;
        while (Date.now() < until) {
          await flick();
          await page.waitForTimeout(50);
        }
        release();
        await page.waitForLoadState('load');
        for (let i = 0; i < 20; i++) {
          await flick();
          await page.waitForTimeout(50);
        }
        await page.locator('footer').scrollIntoViewIfNeeded();
        const seen = await page.evaluate(() => (window as unknown as { seen: Seen }).seen);
        expect(seen.frames).toBeGreaterThan(10);
        expect(seen.unstyled).toEqual([]);
        expect(seen.shifts).toBe(0);
        // And the page has all of its CSS in the end, from the one stylesheet every page shares.
        const sheet = await page.evaluate(
          (marker) =>
            (document.getElementById(marker)?.nextElementSibling as HTMLLinkElement | null)?.sheet?.href,
          FIRST_SCREEN_END,
        );
        expect(sheet).toMatch(/\/assets\/entry-client-[\w-]+\.css$/);
        expect(errors).toEqual([]);
      } finally {
        await context.close();
      }
    },
  );
});
