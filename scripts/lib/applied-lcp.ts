// Largest Contentful Paint with applied throttling, read against a floor page measured in the same run
// (docs/decisions/2026-11-28-first-screen-first-round-trip.md). Simulated throttling counts a whole document past the
// first round trip as one round trip more; applied throttling paints as the bytes arrive, as a phone does, so it shows
// whether the first screen comes in the first round trip.
//
// Applied the way Lighthouse's `--throttling-method=devtools` applies it (the DevTools protocol's network conditions
// and CPU slowdown, with Lighthouse's mobile figures), in Playwright's Chromium: Lighthouse itself took 15-20 s a run
// here (7 min 45 s for the 25 runs), where a plain load takes 2-4 s.
import type { Browser } from 'playwright-core';
import { percentile } from './stats.ts';

/**
 * The floor: the smallest page a site could send, with no CSS, no script and one line of text. Lighthouse's blocking
 * time and paint times for it are what the browser itself costs on this machine (creating the page's JavaScript
 * context, its first layout and paint), which no page can go below: printed beside the site's figures, so that
 * theirs can be read against it. It is audited bare, with the headers the site sends every page (server/http/security.ts),
 * and with all those headers except Cross-Origin-Opener-Policy: that one makes Chromium put the page in a new browsing
 * context group, so in a renderer process of its own, on arrival from Lighthouse's blank tab (as from most other
 * sites), and that process's first JavaScript context costs tens of milliseconds of blocking time in some runs, on
 * the floor page as on the site's (kept on purpose: docs/decisions/2026-11-24-keep-coop-same-origin.md).
 */
export const FLOOR_PAGE =
  '<!doctype html><html lang="en"><head><meta charset="utf-8">' +
  '<meta name="viewport" content="width=device-width, initial-scale=1"><title>Floor</title></head>' +
  '<body><h1>Help is available</h1><p>Call us any time, day or night.</p></body></html>';
/** The most a page's LCP with applied throttling may be, as a multiple of the floor page's in the same run. */
export const APPLIED_LCP_GOAL = 1.1;

/**
 * Lighthouse's applied ("devtools") mobile throttling: its slow 4G (150 ms, 1.6 Mbit/s down, 750 kbit/s up) with the
 * factors it applies to real loads (latency × 3.75, throughput × 0.9), in the protocol's units (bytes per second).
 */
const DEVTOOLS_SLOW_4G = {
  offline: false,
  latency: 150 * 3.75,
  downloadThroughput: (1.6 * 1024 * 1024 * 0.9) / 8,
  uploadThroughput: (750 * 1024 * 0.9) / 8,
} as const;
const CPU_SLOWDOWN = 4;
/** Lighthouse's mobile screen (a Moto G Power). */
const SCREEN = {
  viewport: { width: 412, height: 823 },
  deviceScaleFactor: 1.75,
  isMobile: true,
  hasTouch: true,
};

/** The LCP of one fresh load of `url` (no cache, no cookies), in milliseconds from the navigation's start. */
export async function appliedLcpOf(browser: Browser, url: string): Promise<number> {
  const context = await browser.newContext(SCREEN);
  try {
    const page = await context.newPage();
    const cdp = await context.newCDPSession(page);
    await cdp.send('Network.enable');
    await cdp.send('Network.emulateNetworkConditions', DEVTOOLS_SLOW_4G);
    await cdp.send('Emulation.setCPUThrottlingRate', { rate: CPU_SLOWDOWN });
    await page.goto(url, { waitUntil: 'load' });
    // The last candidate before any input is the LCP; the page has painted its first screen before its load event.
    return await page.evaluate(
      () =>
        new Promise<number>((resolve) => {
          new PerformanceObserver((list) =>
            resolve(list.getEntries().at(-1)?.startTime ?? Number.NaN),
          ).observe({
            type: 'largest-contentful-paint',
            buffered: true,
          });
          setTimeout(() => resolve(Number.NaN), 5000);
        }),
    );
  } finally {
    await context.close();
  }
}

/** The median of `values`, leaving out runs with no LCP (NaN). */
export const median = (values: readonly number[]) =>
  percentile(
    values.filter((value) => !Number.isNaN(value)).sort((a, b) => a - b),
    0.5,
  );

/**
 * The LCP of every target, `runs` times each, taken in turns (a slow minute of the machine falls on all alike): each
 * target's runs, in milliseconds, by name.
 */
export async function lcpInTurns(
  browser: Browser,
  targets: readonly { name: string; url: string }[],
  runs: number,
): Promise<Map<string, number[]>> {
  const measured = new Map<string, number[]>(targets.map(({ name }) => [name, []]));
  for (let run = 0; run < runs; run += 1)
    for (const { name, url } of targets)
      measured.get(name)!.push(Math.round(await appliedLcpOf(browser, url)));
  return measured;
}

/**
 * The LCP of every page in `pages` and of the floor page, `runs` times each, in turns (lcpInTurns): lines to print,
 * ending with `lcp_applied_ratio=N`, the worst page's median over the floor's. A run with no LCP is shown as such and
 * left out of the median.
 */
export async function appliedLcp(
  browser: Browser,
  pages: readonly { name: string; url: string }[],
  floorUrl: string,
  runs: number,
): Promise<string[]> {
  const targets = [...pages, { name: 'floor', url: floorUrl }];
  const measured = await lcpInTurns(browser, targets, runs);
  const floor = median(measured.get('floor')!);
  const ratio = (name: string) => median(measured.get(name)!) / floor;
  const worst = Math.max(...pages.map(({ name }) => ratio(name)));
  return [
    `LCP with applied throttling (Lighthouse's devtools figures: ${DEVTOOLS_SLOW_4G.latency} ms, ` +
      `${CPU_SLOWDOWN}× CPU), median of ${runs} runs, against the floor page with the site's headers ` +
      `(goal ≤ ${APPLIED_LCP_GOAL}× the floor; printed, not gated):`,
    ...targets.map(({ name }) => {
      const values = measured.get(name)!;
      const sorted = [...values].sort((a, b) => a - b).map((value) => (Number.isNaN(value) ? 'none' : value));
      const times = `${median(values)} ms (runs ${sorted.join(' ')})`;
      if (name === 'floor') return `  floor: ${times}`;
      const pass = ratio(name) <= APPLIED_LCP_GOAL ? '✓' : '✗';
      return `  ${name}: ${times}, ${ratio(name).toFixed(2)}× the floor ${pass}`;
    }),
    `lcp_applied_ratio=${worst.toFixed(2)}`,
  ];
}
