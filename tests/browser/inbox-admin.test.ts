// The admins' screens in a browser (Debian's Chromium, virtual authenticators): an admin invites a member from the
// Staff screen (the link at the address the admin is on), the member enrols with it, and the admin revokes them (the
// member's next request finds them signed out); Staff, Speed to lead, a lead with "Merge into this one" and the
// account's shift switch pass axe at phone and desktop widths in both schemes. Screenshots go to SHOTS_DIR if set.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, resizeSettled } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { addPasskeyDevice, enrol, inboxOrigin, invite, sendConsultation } from './inbox-helpers.ts';

const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;
const SHOTS = process.env.SHOTS_DIR;

let site: RunningSite;
let browser: Browser;
let page: Page;
let keep: string;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite({ ROUND_ROBIN: 'on' }), launchBrowser()]);
  const context = await browser.newContext({ viewport: SIZES[1] });
  page = await context.newPage();
  await addPasskeyDevice(context, page);
  await enrol(page, site, await invite(site, 'desk.admin@example.org'));
  const person = { firstName: 'Avery', lastName: 'Lindqvist', urgency: 'urgent', source: '/' };
  keep = await sendConsultation(site, { ...person, phone: '(555) 014-2291', email: 'avery.l@example.net' });
  await sendConsultation(site, { ...person, phone: '555-014-2291', email: 'a.lindqvist@example.net' });
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

async function expectAccessible(what: string, shot: string) {
  for (const scheme of ['light', 'dark'] as const) {
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    expect.soft(describeViolations(await axeViolations(page)), `${what}, ${scheme}`).toEqual([]);
    if (SHOTS) {
      mkdirSync(SHOTS, { recursive: true });
      await page.screenshot({
        path: join(SHOTS, `${shot}-${page.viewportSize()?.width}-${scheme}.png`),
        fullPage: true,
      });
    }
  }
  const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect.soft(sideways, `${what} scrolls sideways by ${sideways} px`).toBeLessThanOrEqual(0);
}

describe("the admins' screens", () => {
  it('invite a member from the Staff screen, and revoke them', async () => {
    await page.goto(`${inboxOrigin(site)}/staff/`);
    await page.getByRole('button', { name: 'Admin' }).click();
    await page.getByRole('menuitem', { name: 'Staff' }).click();
    await page.getByRole('heading', { name: 'Staff', level: 1 }).waitFor();
    // The form's own rules, before anything is sent.
    await page.getByRole('button', { name: 'Make an invitation link' }).click();
    await page.getByText('give an e-mail address').waitFor();
    await page.getByRole('textbox', { name: 'E-mail' }).fill('new.member@example.org');
    await page.getByRole('button', { name: 'Make an invitation link' }).click();
    const link = await page.getByRole('textbox', { name: 'Enrolment link' }).inputValue();
    expect(link).toMatch(new RegExp(`^${inboxOrigin(site)}/staff/enrol#[\\w-]{20,}$`));
    await page.getByRole('heading', { name: 'Invitations waiting' }).waitFor();

    // The new member enrols with the link, in a browser of their own.
    const theirs = await browser.newContext({ viewport: SIZES[0] });
    try {
      const member = await theirs.newPage();
      await addPasskeyDevice(theirs, member);
      await enrol(member, site, link.slice(link.indexOf('#')));

      await page.reload();
      const card = page.getByRole('article', { name: 'new.member@example.org' });
      await card.getByRole('button', { name: 'Revoke…' }).click();
      await card.getByRole('button', { name: 'Revoke access' }).click();
      await page.getByText('new.member@example.org was revoked').waitFor();
      await page.getByRole('heading', { name: 'Revoked' }).waitFor();
      // Their next request finds them signed out.
      await member.reload();
      await member.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    } finally {
      await theirs.close();
    }
  });

  it.each(SIZES)('pass axe at $width px: Staff, Speed to lead, a lead to merge, the shift', async (size) => {
    await resizeSettled(page, size);
    await page.goto(`${inboxOrigin(site)}/staff/team`);
    await page.getByRole('heading', { name: 'Members' }).waitFor();
    await expectAccessible(`Staff at ${size.width} px`, 'staff');

    await page.goto(`${inboxOrigin(site)}/staff/speed-to-lead`);
    const report = page.getByRole('region', { name: 'Speed to lead by week and form' });
    await report.waitFor();
    await report
      .getByText('Weeks from Monday, in America/Los_Angeles; newest first.')
      .filter({ visible: true })
      .waitFor();
    // Every figure and the footnote within the report's own edge: nothing cut off, nothing to scroll to.
    const cutOff = await report.evaluate((region) => {
      const edge = region.getBoundingClientRect().right + 0.5;
      return [...region.querySelectorAll('*')]
        .filter((element) => element.getBoundingClientRect().right > edge)
        .map((element) => `${element.tagName} "${element.textContent?.slice(0, 40)}"`);
    });
    expect.soft(cutOff, `Speed to lead at ${size.width} px, cut off`).toEqual([]);
    if (size.width < 768) {
      const card = report.getByRole('article', { name: /^Week of \w+ \d+, / }).first();
      await card.getByText('Missed').waitFor();
      await card.getByText('Median to first contact').waitFor();
    }
    await expectAccessible(`Speed to lead at ${size.width} px`, 'speed-to-lead');

    await page.goto(`${inboxOrigin(site)}/staff/leads/${keep}`);
    await page.getByRole('button', { name: 'Merge into this one…' }).waitFor();
    await expectAccessible(`a lead with a related lead at ${size.width} px`, 'lead-merge');

    await page.goto(`${inboxOrigin(site)}/staff/account`);
    await page.getByRole('switch', { name: /I am on shift/ }).waitFor();
    await expectAccessible(`the account with the shift at ${size.width} px`, 'account-shift');
  });

  it('merges a related lead into this one, and links both', async () => {
    await page.goto(`${inboxOrigin(site)}/staff/leads/${keep}`);
    await page.getByRole('button', { name: 'Merge into this one…' }).click();
    await page.getByRole('button', { name: 'Merge it into this one' }).click();
    await page.getByText('Merged into this one:').waitFor();
    await page.getByRole('link', { name: 'request 1' }).click();
    await page.getByText('This request was merged into').waitFor();
    await expect.poll(() => page.getByRole('combobox', { name: 'Status' }).inputValue()).toBe('closed');
  });
});
