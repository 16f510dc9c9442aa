// The list never looks live without its event stream: the server process stops under an open list, and after more
// than 10 s (a blip shows nothing) the full-width "Reconnecting" banner says so, with the time of the last update; the
// server starts again on the same port with the same store, the stream comes back by itself, the banner goes, and a
// lead sent then appears without a reload. One member, one page.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
import { signedInMember } from '../helpers/inbox-member.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { sendConsultation } from './inbox-helpers.ts';

let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const lead = (firstName: string) => ({
  firstName,
  lastName: 'Moreau',
  phone: '(555) 013-8820',
  email: 'moreau@example.net',
  urgency: 'urgent',
  source: '/',
});

/** The inbox's own words for an instant ("Nov 28, 2026, 5:32 AM"), in the browser's locale and zone. */
const inboxTime = (page: Page, ms: number) =>
  page.evaluate(
    (at) => new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' }).format(at),
    ms,
  );

describe('an open list whose stream is lost', () => {
  it('says "Reconnecting" after 10 s with the last update, and goes live again when the server is back', async () => {
    const { page, errors } = await signedInMember(browser, site, 'night.desk@example.org');
    await sendConsultation(site, lead('Odile'));
    await page.getByRole('link', { name: 'Odile Moreau' }).waitFor();
    const heard = Date.now();
    const before = errors.length; // the 401 of the app's first look, before enrolment

    await site.stopServer();
    const stopped = Date.now();
    const banner = page.getByRole('alert').filter({ hasText: 'Reconnecting: new requests are not showing' });
    // A moment's loss says nothing: still no banner a few seconds in.
    await page.waitForTimeout(5_000);
    expect(await banner.isVisible()).toBe(false);
    await banner.waitFor({ timeout: 15_000 });
    expect(Date.now() - stopped).toBeGreaterThanOrEqual(10_000);
    // Full width, and the time of the last update (as of the lead above, before the server stopped).
    const width = await banner.evaluate((element) => element.getBoundingClientRect().width);
    expect(width).toBe(page.viewportSize()?.width);
    const said = await banner.textContent();
    const times = new Set([await inboxTime(page, heard), await inboxTime(page, stopped)]);
    expect(
      [...times].some((time) => said?.includes(`Last update ${time}.`)),
      `${said}`,
    ).toBe(true);
    await expect.poll(() => page.title()).toMatch(/reconnecting/i);
    // Not signed out: the session is the server's and survives it.
    expect(said).not.toContain('Signed out');

    await site.startServer();
    await banner.waitFor({ state: 'detached', timeout: 45_000 });
    await expect.poll(() => page.title()).not.toMatch(/reconnecting/i);
    // Live again: a lead sent now shows without a reload.
    await sendConsultation(site, lead('Bastien'));
    await page.getByRole('link', { name: 'Bastien Moreau' }).waitFor();
    // Only the connection's own failures while the server was down: no 401, nothing thrown.
    const lost = /ERR_CONNECTION_REFUSED|ERR_INCOMPLETE_CHUNKED_ENCODING/;
    expect(errors.slice(before).filter((error) => !lost.test(error))).toEqual([]);
  }, 120_000);
});
