// The desk's screens on a phone (Chromium, 390×844): at least four lead cards fit the screen; the triage controls
// (several statuses at once, sort by urgency, said to be within the page); and never silently stale: when the session
// ends under an open list (its row deleted from the store, as a revoke or a sign-out elsewhere does), a full-width
// banner says so within 10 s, the cards stop claiming to be current, the title says it, and "Sign in again" returns to
// the same view; a lead's page likewise says it is not current. axe on the signed-out screen at phone and desktop
// width.
import Database from 'better-sqlite3';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, PHONE, resizeSettled } from '../helpers/browser.ts';
import { signedInMember } from '../helpers/inbox-member.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { inboxOrigin, sendConsultation } from './inbox-helpers.ts';

let site: RunningSite;
let browser: Browser;
let page: Page;
const URGENCIES = ['planning', 'soon', 'urgent', 'planning', 'immediate', 'soon'] as const;
const NAMES = ['Ines', 'Jonah', 'Keiko', 'Luca', 'Maren', 'Nadia'];

beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
  ({ page } = await signedInMember(browser, site, 'screens.worker@example.org', { device: PHONE }));
  for (const [i, firstName] of NAMES.entries())
    await sendConsultation(site, {
      firstName,
      lastName: 'Varga',
      // Three numbers for six leads: each card also says "Also wrote …", the tallest a card gets.
      phone: `(555) 017-44${String(30 + (i % 3))}`,
      email: `${firstName.toLowerCase()}@example.net`,
      urgency: URGENCIES[i] ?? 'soon',
      message: 'Please call',
      source: '/',
    });
}, 60_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** The lead cards wholly inside the viewport. */
const cardsInView = (p: Page) =>
  p.evaluate(
    () =>
      [...document.querySelectorAll('.inbox-leads > li')].filter((card) => {
        const box = card.getBoundingClientRect();
        return box.top >= 0 && box.bottom <= window.innerHeight;
      }).length,
  );

describe('the desk on a phone', () => {
  it('fits at least four lead cards on a 390×844 screen', async () => {
    await page.goto(`${inboxOrigin(site)}/staff/`);
    await expect.poll(() => page.locator('.inbox-leads > li').count()).toBe(6);
    // The first screen, as the list opens: the header, the view and its Filters button, then four cards and more.
    await expect(page.evaluate(() => window.scrollY)).resolves.toBe(0);
    await expect(cardsInView(page)).resolves.toBeGreaterThanOrEqual(4);
    // Every card keeps what a worker needs: the wait ticking against the promise, the form and urgency, who calls,
    // and the same person's other request.
    const card = page.locator('.inbox-leads > li').first();
    await expect(card.innerText()).resolves.toMatch(/Also wrote/);
    await expect(card.innerText()).resolves.toMatch(/waiting \d+ min, due in 1[45] min/);
    await expect(card.getByRole('button', { name: "I'm calling" }).isVisible()).resolves.toBe(true);
    await expect(card.getByText('Free consultation request').isVisible()).resolves.toBe(true);
  });

  it('sorts by urgency within the page, saying so, and takes several statuses at once', async () => {
    await page.goto(`${inboxOrigin(site)}/staff/`);
    await page.locator('.inbox-leads > li').first().waitFor();
    // On a phone the triage controls are folded behind one button, beside the view.
    await page.getByRole('button', { name: 'Filters' }).click();
    await page.getByRole('radiogroup', { name: 'Sort by' }).getByText('Urgency', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('sort')).toBe('urgency');
    await page.getByText('Sorted by urgency among the leads loaded on this page').waitFor();
    await expect(page.locator('.inbox-leads > li').first().innerText()).resolves.toContain('Maren Varga');
    await expect(page.locator('.inbox-leads > li').last().innerText()).resolves.toMatch(/Ines|Luca/);

    const statuses = page.getByRole('group', { name: 'Status' });
    const asked = page.waitForRequest((request) =>
      /\/staff\/api\/leads\?.*status=new%2Cnot-reached/.test(request.url()),
    );
    await statuses.getByText('New', { exact: true }).click();
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('new');
    await statuses.getByText('Not reached', { exact: true }).click();
    await asked;
    await expect.poll(() => new URL(page.url()).searchParams.get('status')).toBe('new,not-reached');
    await expect.poll(() => page.locator('.inbox-leads > li').count()).toBe(6);
  });

  it('says at once that it is signed out when the session ends, and signs back in to the same view', async () => {
    const view = `${inboxOrigin(site)}/staff/?view=all&sort=urgency`;
    await page.goto(view);
    await page.locator('.inbox-leads > li').first().waitFor();
    await expect.poll(() => page.locator('.inbox-leads > li').count()).toBe(6);
    const db = new Database(site.dbFile);
    db.prepare('DELETE FROM sessions').run();
    db.close();
    const endedAt = Date.now();

    const banner = page.getByRole('alert').filter({ hasText: 'Signed out: new requests are not showing' });
    await banner.waitFor({ timeout: 10_000 });
    expect(Date.now() - endedAt).toBeLessThan(10_000);
    await expect(banner.innerText()).resolves.toMatch(/Last update \w{3} \d{1,2}, \d{4}, \d{1,2}:\d{2}/);
    // The list stays, plainly not current: no card claims "just now" or a wait without the time it was true.
    await expect(page.locator('.inbox-leads').getAttribute('data-stale')).resolves.toBe('true');
    const ages = await page.locator('.inbox-lead-age').allInnerTexts();
    expect(ages).toHaveLength(6);
    for (const age of ages)
      expect(age).toMatch(/^waiting \d+ min, due in \d+ min \(at \d{1,2}:\d{2} [AP]M\)$/);
    await expect(page.locator('.inbox-leads').innerText()).resolves.not.toMatch(/just now/i);
    await expect(page.title()).resolves.toBe('Signed out: Admissions inbox');
    // Nobody claims a lead from a list that is not current: the claim waits for signing in again.
    const claims = page.getByRole('button', { name: "I'm calling" });
    await expect(claims.count()).resolves.toBeGreaterThan(0);
    for (const claim of await claims.all()) await expect(claim.isDisabled()).resolves.toBe(true);
    for (const width of [390, 1280]) {
      await resizeSettled(page, { width, height: width === 390 ? 844 : 800 });
      expect(describeViolations(await axeViolations(page)), `signed out at ${width} px`).toEqual([]);
    }
    await resizeSettled(page, { width: 390, height: 844 });

    await banner.getByRole('button', { name: 'Sign in again' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await expect.poll(() => page.url()).toBe(view);
    await expect.poll(() => page.locator('.inbox-leads > li').count()).toBe(6);
    await expect(page.locator('.inbox-leads').getAttribute('data-stale')).resolves.toBeNull();
    await expect(banner.count()).resolves.toBe(0);
    await expect.poll(() => page.title()).toBe('(6) Admissions inbox');
  }, 60_000);

  it("never shows a lead's page as current once signed out", async () => {
    await page.getByRole('link', { name: 'Maren Varga' }).click();
    await page.getByRole('heading', { name: 'What they sent' }).waitFor();
    const due = page.getByRole('region', { name: 'Who is calling, and when it is due' });
    await expect(due.innerText()).resolves.toMatch(/waiting \d+ min, due in \d+ min/);
    const db = new Database(site.dbFile);
    db.prepare('DELETE FROM sessions').run();
    db.close();
    await page
      .getByRole('alert')
      .filter({ hasText: 'Signed out: new requests are not showing' })
      .waitFor({ timeout: 10_000 });
    await expect(due.innerText()).resolves.toMatch(/\(at \d{1,2}:\d{2} [AP]M, not current\)/);
    await expect(page.locator('main').innerText()).resolves.not.toMatch(/just now/i);
    await expect(page.title()).resolves.toBe('Signed out: Admissions inbox');
  }, 30_000);
});
