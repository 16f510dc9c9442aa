// The first interactions of a visitor on a slow phone, as `npm run audit` measures them: how long each takes from
// the touch or key press to the next paint (Event Timing, what Interaction to Next Paint is made of). Each action is
// the first thing the visitor does on a freshly loaded page, so it is the one that pays for waking and hydrating the
// page's code (renderer/shell/hydration-loader.ts). Printed, never gated: timings on a shared machine are too noisy.
import { readFileSync } from 'node:fs';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { PHONE } from '../../tests/helpers/browser.ts';
import { PREFETCH_DELAY_MS } from '../../renderer/shell/hydration-loader.ts';
import { percentile } from './stats.ts';

/** A phone on a weak 4G signal (DevTools protocol units: bytes per second): 150 ms, 1.6 Mbit/s down, 750 kbit/s up. */
export const WEAK_4G = {
  offline: false,
  latency: 150,
  downloadThroughput: 200_000,
  uploadThroughput: 93_750,
} as const;
/** Chromium's CPU slowdown for a mid-range phone (Lighthouse's mobile setting). */
export const PHONE_CPU_SLOWDOWN = 4;

/** Event Timing reports events at least this long (its smallest allowed threshold). */
const DURATION_THRESHOLD_MS = 16;
/** The "good" threshold of Interaction to Next Paint, and what the site aims at. */
export const FIRST_INTERACTION_GOAL_MS = 200;
export const FIRST_INTERACTION_AIM_MS = 100;
/** What the visitor types into the embedded form, a key every 120 ms (a quick thumb). */
const TYPED = 'Jane Doe';
const KEY_DELAY_MS = 120;
/** How long a human takes from scrolling the widget into view to tapping it. */
const SCROLL_TO_TAP_MS = 300;

/** Opens a slowed phone page on `url` and lets it settle as a visitor reading it would: loaded, its code prefetched. */
export async function openSlowPhone(
  browser: Browser,
  url: string,
): Promise<{ page: Page; context: BrowserContext }> {
  const context = await browser.newContext(PHONE);
  const page = await context.newPage();
  const cdp = await context.newCDPSession(page);
  await cdp.send('Network.enable');
  await cdp.send('Network.emulateNetworkConditions', WEAK_4G);
  await cdp.send('Emulation.setCPUThrottlingRate', { rate: PHONE_CPU_SLOWDOWN });
  await page.addInitScript((threshold) => {
    const events: { id: number; name: string; duration: number }[] = [];
    (window as unknown as { interactionEvents: typeof events }).interactionEvents = events;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as PerformanceEventTiming[])
        if (entry.interactionId > 0)
          events.push({ id: entry.interactionId, name: entry.name, duration: entry.duration });
    }).observe({ type: 'event', durationThreshold: threshold, buffered: true } as PerformanceObserverInit);
  }, DURATION_THRESHOLD_MS);
  await page.goto(url, { waitUntil: 'load' });
  // The loader prefetches the code PREFETCH_DELAY_MS after the load event; wait until every module it names is in the
  // cache, as it is for a visitor who has looked at the page for a few seconds.
  await page.waitForTimeout(PREFETCH_DELAY_MS);
  await page.waitForFunction(() => {
    const loader = [...document.scripts].find((script) => script.textContent?.includes('modules='));
    const modules = /modules=(\[[^\]]*\])/.exec(loader?.textContent ?? '')?.[1];
    if (!modules) return true;
    const fetched = new Set(
      performance.getEntriesByType('resource').map((entry) => new URL(entry.name).pathname),
    );
    return (JSON.parse(modules) as string[]).every((href) => fetched.has(href));
  });
  return { page, context };
}

/** Waits until the page is hydrated and its event entries are in (they are reported after the next paint). */
async function settled(page: Page): Promise<void> {
  await page.locator('html[data-hydrated]').waitFor({ state: 'attached', timeout: 60_000 });
  await page.waitForTimeout(1000);
}

/** The longest event of each interaction (Interaction to Next Paint's own reading), in order. */
async function interactionDurations(page: Page): Promise<number[]> {
  const events = await page.evaluate(
    () => (window as unknown as { interactionEvents: { id: number; duration: number }[] }).interactionEvents,
  );
  const longest = new Map<number, number>();
  for (const { id, duration } of events) longest.set(id, Math.max(longest.get(id) ?? 0, duration));
  return [...longest.values()];
}

export interface ActionRun {
  /** The longest interaction of the action, ms (0 when every event was under the threshold). */
  ms: number;
  /** What the visitor meant to happen did: the menu or dialog is open, the typed text is in the field. */
  done: boolean;
}

type Action = { name: string; failure: string; run: (page: Page) => Promise<boolean> };

/** The three first moves of a visitor: the menu, the widget's insurance dialog, the page's own form. */
export const ACTIONS: readonly Action[] = [
  {
    name: 'open the phone menu',
    failure: 'the menu did not open',
    run: async (page) => {
      await page.locator('.mobile-menu > summary').tap();
      await settled(page);
      return page
        .locator('details.mobile-menu[open]')
        .count()
        .then((n) => n === 1);
    },
  },
  {
    name: "open the widget's insurance dialog",
    failure: 'the dialog did not open',
    run: async (page) => {
      // The bar shows once the page is scrolled (by CSS before the code runs); the scroll itself wakes the code.
      await page.evaluate(() => window.scrollTo(0, 600));
      await page.waitForTimeout(SCROLL_TO_TAP_MS);
      await page.locator('.widget-bar button').first().tap();
      await settled(page);
      return page
        .locator('#widget-insurance-dialog')
        .evaluate((d) => (d as HTMLDialogElement).open || d.matches(':popover-open'));
    },
  },
  {
    name: 'type in the embedded form',
    failure: 'the typed text was not in the field after hydration',
    run: async (page) => {
      const field = page
        .locator('main form')
        .first()
        .locator('input:not([type=hidden]):not([tabindex="-1"]), textarea')
        .first();
      await field.tap();
      await field.pressSequentially(TYPED, { delay: KEY_DELAY_MS });
      await settled(page);
      // What was typed while the page hydrated is still there once it has.
      return (await field.inputValue()) === TYPED;
    },
  },
];

/** One action as the first interaction on a fresh slowed page. */
export async function measureAction(browser: Browser, url: string, action: Action): Promise<ActionRun> {
  const { page, context } = await openSlowPhone(browser, url);
  try {
    // An action that cannot be carried out (a page without a form) is reported, not thrown: the audit goes on.
    const done = await action.run(page).catch((error: unknown) => {
      console.log(`  ${url}: ${action.name}: ${String(error).split('\n')[0]}`);
      return false;
    });
    const durations = await interactionDurations(page);
    return { ms: Math.round(Math.max(0, ...durations)), done };
  } finally {
    await context.close();
  }
}

/** `some avg10=.. avg60=..` of the machine's CPU pressure (Linux), to read the figures against. */
export function cpuPressure(): string {
  try {
    return readFileSync('/proc/pressure/cpu', 'utf8').split('\n')[0] ?? 'unknown';
  } catch {
    return 'unknown (no /proc/pressure/cpu)';
  }
}

/** Measures every action on every page `runs` times and prints the median and worst of each. */
export async function firstInteraction(
  browser: Browser,
  baseUrl: string,
  paths: readonly string[],
  runs: number,
): Promise<{ worst: number; lines: string[] }> {
  const lines: string[] = [];
  let worst = 0;
  const pressureBefore = cpuPressure();
  for (const path of paths)
    for (const action of ACTIONS) {
      const results: ActionRun[] = [];
      for (let run = 0; run < runs; run += 1)
        results.push(await measureAction(browser, `${baseUrl}${path}`, action));
      const ms = results.map((r) => r.ms).sort((a, b) => a - b);
      const max = ms.at(-1) ?? 0;
      worst = Math.max(worst, max);
      const failed = results.filter((r) => !r.done).length;
      lines.push(
        `${path.padEnd(30)} ${action.name.padEnd(36)} median ${String(percentile(ms, 0.5)).padStart(4)} ms, ` +
          `worst ${String(max).padStart(4)} ms (runs: ${ms.join(' ')})` +
          (failed ? `  ✗ ${action.failure} in ${failed} of ${runs} runs` : ''),
      );
    }
  lines.push(`CPU pressure before: ${pressureBefore}; after: ${cpuPressure()}`);
  return { worst, lines };
}
