// A staff member signed in to the inbox in their own browser context, as the inbox's browser tests need one or two:
// invited with the staff CLI, a passkey on Chromium's virtual authenticator, enrolled through the app, and on the
// list once its event stream answers (so a lead sent after this shows without a reload).
import type { Browser, BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { addPasskeyDevice, enrol, invite } from '../browser/inbox-helpers.ts';
import { openPage } from './browser.ts';
import type { RunningSite } from './site-under-test.ts';

export interface SignedInMember {
  page: Page;
  context: BrowserContext;
  /** Console errors and uncaught exceptions of the page (browser.ts). */
  errors: string[];
}

export async function signedInMember(
  browser: Browser,
  site: RunningSite,
  email: string,
  { device, admin = false }: { device?: BrowserContextOptions; admin?: boolean } = {},
): Promise<SignedInMember> {
  const { page, context, errors } = await openPage(browser, device);
  page.setDefaultTimeout(20_000);
  await addPasskeyDevice(context, page);
  const listening = page.waitForResponse((response) => response.url().endsWith('/staff/api/events'));
  await enrol(page, site, await invite(site, email, admin));
  await listening;
  return { page, context, errors };
}
