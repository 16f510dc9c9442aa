// The admissions desk as two members use it at once, one on a phone and one at a desk (each signed in with a passkey
// of a virtual authenticator): a lead arrives and both queues show it with its wait ticking; one says "I'm calling" and
// the other sees it within a second; a call's outcome, "asked to call back in 10 minutes", moves its due time on both;
// the tab title counts what needs a call; and axe finds nothing on the desk's screens at either width.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, PHONE, DESKTOP } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { addPasskeyDevice, enrol, invite, sendConsultation } from './inbox-helpers.ts';

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
  phone: '(555) 017-4420',
  email: `${firstName.toLowerCase()}@example.net`,
  urgency: 'urgent',
  message: 'Please call',
  source: '/',
});

async function member(email: string, options: typeof PHONE): Promise<Page> {
  const { page, context } = await openPage(browser, options);
  page.setDefaultTimeout(20_000);
  await addPasskeyDevice(context, page);
  const listening = page.waitForResponse((response) => response.url().endsWith('/staff/api/events'));
  await enrol(page, site, await invite(site, email, false));
  await listening;
  return page;
}

describe('two members at the desk', () => {
  it('see a lead arrive, one claims it, the other sees that within a second, and a callback moves it on both', async () => {
    const phone = await member('phone.worker@example.org', PHONE);
    const desk = await member('desk.worker@example.org', DESKTOP);
    await sendConsultation(site, lead('Amelie'));
    const name = { name: 'Amelie Moreau' };
    for (const page of [phone, desk]) {
      await page
        .getByRole('link', name)
        .waitFor({ timeout: 8000 })
        .catch(async (error: unknown) => {
          await page.screenshot({ path: '/tmp/desk-fail.png' });
          throw error;
        });
      const card = page.getByRole('listitem').filter({ has: page.getByRole('link', name) });
      await expect(card.innerText()).resolves.toMatch(/waiting \d+ min, due in 1[45] min/);
      await expect.poll(() => page.title()).toBe('(1) Admissions inbox');
    }

    const phoneCard = phone.getByRole('listitem').filter({ has: phone.getByRole('link', name) });
    const deskCard = desk.getByRole('listitem').filter({ has: desk.getByRole('link', name) });
    const claimedAt = Date.now();
    await phoneCard.getByRole('button', { name: "I'm calling" }).click();
    await deskCard.getByText('phone.worker is calling').waitFor({ timeout: 1000 });
    expect(Date.now() - claimedAt).toBeLessThan(1500);
    await phoneCard.getByRole('button', { name: 'Release' }).waitFor();

    // The call: asked to call back in 10 minutes (the form's default time), saved, and the due time moves on both.
    await phone.getByRole('link', name).click();
    await phone
      .getByRole('combobox', { name: 'What came of it' })
      .selectOption({ label: 'Asked to call back' });
    await phone.getByRole('button', { name: 'Save outcome' }).click();
    await phone.getByRole('status').filter({ hasText: 'Saved: Asked to call back.' }).waitFor();
    await phone.getByText(/callback due in (9|10) min/).waitFor();
    await deskCard.getByText(/callback due in (9|10) min/).waitFor({ timeout: 2000 });
    await expect(deskCard.innerText()).resolves.toContain('1 call');

    for (const page of [phone, desk]) expect(describeViolations(await axeViolations(page))).toEqual([]);
  }, 120_000);
});
