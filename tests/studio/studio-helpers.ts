// Driving the studio in Debian's Chromium: open a document and wait until its checks have run.
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll } from 'vitest';
import { startStudio, type StudioUnderTest } from '../helpers/studio-process.ts';
import { launchBrowser } from '../helpers/browser.ts';

/** A limit for hangs on a busy machine, not a measurement. */
export const FIRST_LOAD_MS = 90_000;

export async function openStudio(
  browser: Browser,
  studio: StudioUnderTest,
  file: string,
  options: BrowserContextOptions = { viewport: { width: 1600, height: 1000 } },
) {
  const context = await browser.newContext(options);
  const page = await context.newPage();
  const errors: string[] = [];
  page.on('pageerror', (error) => errors.push(error.message));
  await page.goto(`${studio.url}/#${file}`, { timeout: FIRST_LOAD_MS });
  await page.getByRole('button', { name: /Save/ }).waitFor({ timeout: FIRST_LOAD_MS });
  // The first check of a studio just started waits for the spelling dictionaries to load (seconds of CPU in a worker).
  await checked(page, FIRST_LOAD_MS);
  return { page, context, errors };
}

/** Waits until the build's checks have answered for the current draft (`timeout`: a limit for hangs). */
export async function checked(page: Page, timeout = 10_000) {
  await page.waitForFunction(
    () => document.querySelector('[data-testid="error-count"]')?.textContent !== 'Checking…',
    undefined,
    { timeout },
  );
}

export const field = (page: Page, pointer: string) => page.locator(`[data-pointer="${pointer}"]`).first();

export async function saveThroughDialog(page: Page) {
  await page.getByRole('button', { name: 'Save', exact: true }).click();
  await page.getByRole('button', { name: 'Write to file' }).click();
  await page.getByText('Saved.').waitFor();
}

/** Opens the editor and a preview once, so the browser has loaded both before any test measures or waits. */
export async function warmUp(browser: Browser, studio: StudioUnderTest) {
  const { page, context } = await openStudio(browser, studio, 'pages/index.json');
  await page.getByTestId('outline-0').click();
  await page.frameLocator('[data-testid="preview-phone"]').locator('h1').waitFor({ timeout: FIRST_LOAD_MS });
  await context.close();
}

/** The studio on a throwaway copy of the repository and a browser, warmed up before a file's tests and stopped after. */
export function studioInBrowser(): { readonly studio: StudioUnderTest; readonly browser: Browser } {
  const running = {} as { studio: StudioUnderTest; browser: Browser };
  beforeAll(async () => {
    [running.studio, running.browser] = await Promise.all([startStudio(), launchBrowser()]);
    await warmUp(running.browser, running.studio);
  }, 240_000);
  afterAll(async () => {
    await running.browser?.close();
    await running.studio?.stop();
  });
  return running;
}
