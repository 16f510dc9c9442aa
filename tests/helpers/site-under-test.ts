// One browser and one running site per test file, started before and stopped after its tests.
import { afterAll, beforeAll } from 'vitest';
import type { Browser } from 'playwright-core';
import { launchBrowser } from './browser.ts';
import { startSite, type RunningSite } from './site-server.ts';

export function siteUnderTest(): { readonly browser: Browser; readonly site: RunningSite } {
  let browser: Browser | undefined;
  let running: RunningSite | undefined;
  beforeAll(async () => {
    [browser, running] = await Promise.all([launchBrowser(), startSite()]);
  });
  afterAll(async () => {
    await browser?.close();
    await running?.stop();
  });
  const ready = <T>(value: T | undefined): T => {
    if (!value) throw new Error('The site under test is not running');
    return value;
  };
  return {
    get browser() {
      return ready(browser);
    },
    get site() {
      return ready(running);
    },
  };
}
