// The inbox passes axe (WCAG 2.2 A/AA and best practices, the site's own gate in tests/quality/accessibility.ts) on
// the list, a lead page, the account and the sign-in screen, at phone (390×844) and desktop (1280×800) widths, in the light and the
// dark scheme; and no screen scrolls sideways on the phone.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, resizeSettled } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { addPasskeyDevice, inboxOrigin, enrol, invite, sendConsultation } from './inbox-helpers.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

let site: RunningSite;
let browser: Browser;
let page: Page;
let leadId: string;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  const context = await browser.newContext({ viewport: SIZES[0] });
  page = await context.newPage();
  await addPasskeyDevice(context, page);
  await enrol(page, site, await invite(site, 'axe.admin@example.org'));
  leadId = await sendConsultation(site, {
    firstName: 'Avery',
    lastName: 'Lindqvist',
    phone: '(555) 014-2291',
    email: 'avery.l@example.net',
    urgency: 'urgent',
    message: 'A long message that wraps over several lines on a phone, to see it laid out.',
    source: '/',
  });
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function expectAccessible(page: Page, what: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    expect.soft(describeViolations(await axeViolations(page)), `${what}, ${scheme}`).toEqual([]);
  }
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect.soft(sideways, `${what} scrolls sideways by ${sideways} px`).toBeLessThanOrEqual(0);
}

describe('the inbox with axe', () => {
  it.each(SIZES)(
    'has no violations on the list, a lead, the account and sign-in at $width px',
    async (size) => {
      await resizeSettled(page, size);
      await page.goto(`${inboxOrigin(site)}/staff/`);
      await page.getByRole('link', { name: 'Avery Lindqvist' }).waitFor();
      await expectAccessible(page, `the list at ${size.width} px`);

      await page.goto(`${inboxOrigin(site)}/staff/leads/${leadId}`);
      await page.getByRole('heading', { name: 'What they sent' }).waitFor();
      await expectAccessible(page, `a lead at ${size.width} px`);

      await page.goto(`${inboxOrigin(site)}/staff/account`);
      await page.getByText('(This device)').waitFor();
      await expectAccessible(page, `the account at ${size.width} px`);

      // The sign-in screen, as a signed-out visit to it shows it (a second context, so this one stays signed in).
      const signedOut = await browser.newContext({ viewport: size });
      try {
        const other = await signedOut.newPage();
        await other.goto(`${inboxOrigin(site)}/staff/sign-in`);
        await other.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
        await expectAccessible(other, `sign-in at ${size.width} px`);
      } finally {
        await signedOut.close();
      }
    },
  );

  it('folds the triage controls and filters away on a phone, beside the view, and shows them open on a desk', async () => {
    await page.emulateMedia({ colorScheme: 'light' });
    await resizeSettled(page, SIZES[0]);
    await page.goto(`${inboxOrigin(site)}/staff/`);
    await page.getByRole('link', { name: 'Avery Lindqvist' }).waitFor();
    const toggle = page.getByRole('button', { name: 'Filters' });
    const status = page.getByRole('group', { name: 'Status' });
    await expect(status.isVisible()).resolves.toBe(false);
    await expect(page.getByRole('searchbox', { name: 'Search by name or phone' }).isVisible()).resolves.toBe(
      false,
    );
    // Folded controls take no room: the leads follow the button's row after the group's own gap.
    const button = await toggle.boundingBox();
    const list = await page.locator('.inbox-leads').boundingBox();
    expect(list!.y - (button!.y + button!.height)).toBeLessThanOrEqual(16);
    await toggle.click();
    await expect(toggle.getAttribute('aria-expanded')).resolves.toBe('true');
    await expect(status.isVisible()).resolves.toBe(true);
    await expect(page.getByRole('radiogroup', { name: 'Sort by' }).isVisible()).resolves.toBe(true);

    await resizeSettled(page, SIZES[1]);
    await expect.poll(() => toggle.isVisible()).toBe(false);
    await expect(status.isVisible()).resolves.toBe(true);
  });

  it('draws headings in the dark scheme brighter than the text under them', async () => {
    await page.emulateMedia({ colorScheme: 'dark' });
    await page.goto(`${inboxOrigin(site)}/staff/leads/${leadId}`);
    await page.getByRole('heading', { name: 'What they sent' }).waitFor();
    const [heading, text] = await page.evaluate(() => [
      getComputedStyle(document.querySelector('main h1')!).color,
      getComputedStyle(document.querySelector('main')!).color,
    ]);
    expect(text).toBe('rgb(201, 201, 201)');
    expect(heading).toBe('rgb(255, 255, 255)');
    await page.emulateMedia({ colorScheme: 'light' });
  });
});
