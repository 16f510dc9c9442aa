// Debian's Chromium, the one way it is started: driven by playwright-core, or bare for Lighthouse. No browser is ever
// downloaded by a test tool.
import { launch, type LaunchedChrome } from 'chrome-launcher';
import {
  chromium,
  type Browser,
  type BrowserContextOptions,
  type ConsoleMessage,
  type Page,
  type Request,
} from 'playwright-core';

/** The one variable naming the browser, for the tests, the audit and the benchmarks alike. */
export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
/**
 * Chromium as it runs here, in containers: no sandbox (containers), no GPU, /tmp instead of a small /dev/shm, and no
 * background traffic to Google (refused by this machine's network, and noise in measurements).
 */
const FLAGS = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-dev-shm-usage'];

/** The browser driven by Playwright: every browser test, the first-interaction audit, the benchmarks. */
export function launchBrowser(): Promise<Browser> {
  return chromium.launch({ executablePath: CHROMIUM, args: FLAGS });
}

/**
 * The same browser for Lighthouse, which drives it over its own debugging port: started without Playwright's
 * automation defaults, which change what Lighthouse measures (the home page's simulated LCP read 3.1 s under them
 * and 2.0 s without, in one run on this machine).
 */
export function launchForLighthouse(): Promise<LaunchedChrome> {
  return launch({ chromePath: CHROMIUM, chromeFlags: ['--headless=new', ...FLAGS], logLevel: 'error' });
}

export const PHONE: BrowserContextOptions = {
  viewport: { width: 390, height: 844 },
  hasTouch: true,
  isMobile: true,
};
export const DESKTOP: BrowserContextOptions = { viewport: { width: 1366, height: 900 } };

/** Opens a page that records console errors and uncaught exceptions, so tests can assert there were none. */
export async function openPage(browser: Browser, options: BrowserContextOptions = DESKTOP) {
  const context = await browser.newContext(options);
  const page: Page = await context.newPage();
  const errors: string[] = [];
  const messages: string[] = [];
  page.on('console', (message) => {
    messages.push(`${message.type()}: ${message.text()}`);
    if (message.type() === 'error') errors.push(message.text());
  });
  page.on('pageerror', (error) => errors.push(error.message));
  return { page, context, errors, messages };
}

/** How long a woken page may take to hydrate: seconds on this machine, so this much means it never will. */
export const HYDRATION_TIMEOUT_MS = 20_000;

/**
 * Opens a page as a visitor does and wakes its scripts: they run at the first interaction (a key press here, which
 * touches nothing on the page; renderer/shell/hydration-loader.ts), and this resolves once the page is hydrated. A page
 * that does not hydrate fails saying why: the requests that failed or never finished, the page's errors and console
 * errors, and the scripts it fetched.
 */
export async function visit(page: Page, url: string) {
  const problems: string[] = [];
  const pending = new Set<Request>();
  const onRequest = (request: Request) => pending.add(request);
  const onFinished = (request: Request) => pending.delete(request);
  const onFailed = (request: Request) => {
    pending.delete(request);
    problems.push(`request failed: ${request.url()} (${request.failure()?.errorText ?? 'no reason given'})`);
  };
  const onError = (error: Error) => problems.push(`page error: ${error.message}`);
  const onConsole = (message: ConsoleMessage) => {
    if (message.type() === 'error') problems.push(`console error: ${message.text()}`);
  };
  page.on('request', onRequest);
  page.on('requestfinished', onFinished);
  page.on('requestfailed', onFailed);
  page.on('pageerror', onError);
  page.on('console', onConsole);
  try {
    // After the load event, so the loader (an inline script at the end of the body) is listening. Not at
    // 'networkidle': Playwright fires it after 500 ms without requests even while the parser is still busy, and on a
    // loaded machine the key press then came before the loader and woke nothing (12 of 396 visits).
    const response = await page.goto(url, { waitUntil: 'load' });
    await page.keyboard.press('Shift');
    await page
      .locator('html[data-hydrated]')
      .waitFor({ state: 'attached', timeout: HYDRATION_TIMEOUT_MS })
      .catch(async (error: unknown) => {
        const scripts = await page
          .evaluate(() =>
            performance
              .getEntriesByType('resource')
              .filter((entry) => entry.name.endsWith('.js'))
              .map((entry) => new URL(entry.name).pathname),
          )
          .catch(() => []);
        throw new Error(
          `${url} was not hydrated ${HYDRATION_TIMEOUT_MS / 1000} s after a key press; ` +
            [
              ...problems,
              ...[...pending].map((request) => `no answer yet: ${request.url()}`),
              `scripts fetched: ${scripts.join(', ') || 'none'}`,
            ].join('; '),
          { cause: error },
        );
      });
    return response;
  } finally {
    page.off('request', onRequest);
    page.off('requestfinished', onFinished);
    page.off('requestfailed', onFailed);
    page.off('pageerror', onError);
    page.off('console', onConsole);
  }
}

/**
 * Sets the viewport and waits until the layout has settled: a staff screen's side menu slides in or out (a CSS
 * transition) when the width crosses its breakpoint, and an accessibility check run mid-slide sees the menu over the
 * buttons beneath it.
 */
export async function resizeSettled(page: Page, size: { width: number; height: number }): Promise<void> {
  await page.setViewportSize(size);
  await page.waitForFunction(() =>
    document
      .getAnimations()
      // A spinner's endless animation never finishes; a slide does.
      .every((a) => a.playState !== 'running' || a.effect?.getComputedTiming().endTime === Infinity),
  );
}
