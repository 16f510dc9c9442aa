// An inbox left open signs out when its worker leaves, leads arriving or not: with STAFF_IDLE_MINUTES short (15
// seconds), the warning comes before the end (an alert dialog with the focus on "Stay signed in"), staying counts as
// activity, and at the end the list stays under a banner that says it is signed out and why, no longer current;
// "Sign in again" comes back to it. New leads keep appearing meanwhile, and keep nothing alive.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
import { signedInMember } from '../helpers/inbox-member.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { sendConsultation } from './inbox-helpers.ts';

let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite({ STAFF_IDLE_MINUTES: '0.25' }), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const lead = (firstName: string) => ({
  firstName,
  lastName: 'Okafor',
  phone: '(555) 017-4410',
  email: 'okafor@example.net',
  urgency: 'urgent',
  message: 'Please call',
  source: '/',
});

describe('an unattended inbox', () => {
  it('warns, stays at a click, and signs out at the idle limit while leads arrive', async () => {
    // On the list, listening for new leads once its event stream answers.
    const { page, context, errors } = await signedInMember(browser, site, 'idle.worker@example.org');
    await sendConsultation(site, lead('Adaeze'));
    await page.getByRole('link', { name: 'Adaeze Okafor' }).waitFor();
    const warning = page.getByRole('alertdialog', { name: 'Are you still there?' });
    await warning.waitFor();
    await expect(warning.innerText()).resolves.toMatch(
      /You will be signed out in \d seconds for your patients' privacy/,
    );
    const stay = warning.getByRole('button', { name: 'Stay signed in' });
    await expect(stay.evaluate((button) => button === document.activeElement)).resolves.toBe(true);
    expect(describeViolations(await axeViolations(page))).toEqual([]);
    await stay.click();
    await warning.waitFor({ state: 'detached' });

    // Left alone again; a lead arrives and shows, and the inbox signs out all the same.
    await sendConsultation(site, lead('Chidi'));
    await page.getByRole('link', { name: 'Chidi Okafor' }).waitFor();
    await warning.waitFor();
    const banner = page.getByRole('alert').filter({ hasText: 'Signed out: new requests are not showing' });
    await banner.waitFor();
    await expect(banner.innerText()).resolves.toContain(
      'You were signed out after 15 seconds without activity',
    );
    await expect(warning.count()).resolves.toBe(0);
    // The list stays where it was, plainly not current.
    await expect(page.locator('.inbox-leads').getAttribute('data-stale')).resolves.toBe('true');
    await expect(page.title()).resolves.toBe('Signed out: Admissions inbox');
    await banner.getByRole('button', { name: 'Sign in again' }).click();
    await page
      .getByRole('alert')
      .filter({ hasText: 'You were signed out after 15 seconds without activity' })
      .waitFor();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('link', { name: 'Chidi Okafor' }).waitFor();
    await expect(page.locator('.inbox-leads').getAttribute('data-stale')).resolves.toBeNull();
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
    await context.close();
  }, 90_000);
});
