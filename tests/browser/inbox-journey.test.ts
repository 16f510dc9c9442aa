// The admissions inbox end to end, as an admissions worker on a phone lives it: invited on the command line, enrols a
// passkey (Chromium's virtual authenticator), signs out and in again, sees a lead arrive in the open list without a
// reload, opens it, marks it contacted, adds a note and signs out. Then: every step is in the audit log, and the chat
// message about that lead carries none of what the visitor typed.
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage, PHONE } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { addPasskeyDevice, inboxOrigin, invite, sendConsultation } from './inbox-helpers.ts';

const EMAIL = 'dana.admissions@example.org';
const visitor = {
  firstName: 'Marisol',
  lastName: 'Quintero-Vance',
  phone: '(555) 013-8842',
  email: 'marisol.qv@example.net',
  concernFor: 'family',
  urgency: 'immediate',
  message: 'Please call after six, my brother needs help',
};
const SOURCE = '/treatment/fentanyl-addiction';

let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const auditRows = () => {
  const db = new Database(site.dbFile, { readonly: true });
  try {
    return db.prepare('SELECT actor, action, lead_id AS leadId FROM audit ORDER BY seq').all() as {
      actor: string;
      action: string;
      leadId: string | null;
    }[];
  } finally {
    db.close();
  }
};

describe('the admissions inbox', () => {
  it('takes an invited worker from enrolment to a contacted lead, audited, with nothing identifying in the chat', async () => {
    const fragment = await invite(site, EMAIL);
    const { page, context, errors } = await openPage(browser, PHONE);
    // Each step fails on its own, naming what it waited for, well before the test's limit.
    page.setDefaultTimeout(15_000);
    await addPasskeyDevice(context, page);

    // Enrol: the token leaves the address bar at once.
    await page.goto(`${inboxOrigin(site)}/staff/enrol${fragment}`);
    await page.getByRole('heading', { name: 'Set up your passkey' }).waitFor();
    expect(new URL(page.url()).hash).toBe('');
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    await page.getByRole('heading', { name: 'Leads' }).waitFor();

    // Sign out, then in again with the passkey.
    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).click();
    await page.getByRole('heading', { name: 'Leads' }).waitFor();
    await page.getByText('No leads match these filters.').waitFor();

    // A visitor sends the consultation form while the list is open: it appears without a reload.
    await page.evaluate(() => (document.documentElement.dataset.sameDocument = 'yes'));
    const id = await sendConsultation(site, { ...visitor, source: SOURCE });
    const row = page.getByRole('link', { name: `${visitor.firstName} ${visitor.lastName}` });
    await row.waitFor({ timeout: 10_000 });
    await expect(page.getByRole('status').filter({ hasText: '1 new lead' }).count()).resolves.toBe(1);
    await expect(page.evaluate(() => document.documentElement.dataset.sameDocument)).resolves.toBe('yes');
    await expect(
      page.getByRole('link', { name: `Call ${visitor.phone}` }).getAttribute('href'),
    ).resolves.toBe('tel:+15550138842');

    // A search: the term goes in a POST's body, never in the page's address nor in any request's.
    const addresses: string[] = [];
    page.on('request', (request) => addresses.push(request.url()));
    // On a phone the search folds away with the filters, behind one button beside the view.
    await page.getByRole('button', { name: 'Filters' }).click();
    const search = page.getByRole('searchbox', { name: 'Search by name or phone' });
    await search.fill('Okonkwo');
    await page.getByRole('button', { name: 'Search' }).click();
    await page.getByText('No leads match these filters.').waitFor();
    await search.fill(visitor.lastName);
    await page.getByRole('button', { name: 'Search' }).click();
    await row.waitFor();
    await expect(page.getByText('1 shown.').count()).resolves.toBe(1);
    for (const term of ['Okonkwo', 'Quintero'])
      expect([page.url(), ...addresses].filter((address) => address.includes(term))).toEqual([]);
    expect(addresses.some((address) => address.endsWith('/staff/api/leads/search'))).toBe(true);

    // The lead page: every field opened, where it came from, a big call button.
    await row.click();
    await page.getByRole('heading', { name: 'What they sent' }).waitFor();
    const fields = page.locator('.inbox-fields');
    for (const value of [
      visitor.firstName,
      visitor.lastName,
      visitor.phone,
      visitor.email,
      visitor.message,
      SOURCE,
    ])
      await expect(fields.getByText(value, { exact: true }).count()).resolves.toBeGreaterThan(0);
    await expect(
      page.getByRole('heading', { level: 1, name: `${visitor.firstName} ${visitor.lastName}` }).count(),
    ).resolves.toBe(1);
    await expect(page.getByText('Free consultation request, received').count()).resolves.toBe(1);
    const call = page.getByRole('link', { name: `Call ${visitor.phone}` });
    await expect(call.isVisible()).resolves.toBe(true);
    await expect(call.getAttribute('href')).resolves.toBe('tel:+15550138842');
    await expect(fields.getByRole('link', { name: visitor.phone }).getAttribute('href')).resolves.toBe(
      'tel:+15550138842',
    );

    // The call: the test machine has no phone app, so the tap's own navigation is cancelled; the app's note of it is not.
    await page.evaluate(() =>
      document.addEventListener(
        'click',
        (event) => {
          if ((event.target as Element).closest('a[href^="tel:"]')) event.preventDefault();
        },
        true,
      ),
    );
    await call.click();
    await expect.poll(() => auditRows().some((row) => row.action === 'call' && row.leadId === id)).toBe(true);

    // Contacted, and a note.
    await page.getByRole('combobox', { name: 'Status' }).selectOption({ label: 'Contacted' });
    await page.getByText('New → Contacted').waitFor();
    await page.getByLabel('New note').fill('Left a voicemail, will try again at six.');
    await page.getByRole('button', { name: 'Add note' }).click();
    // Each change shows who made it (and when).
    const note = page.getByRole('region', { name: 'Notes' }).getByRole('listitem');
    await note.filter({ hasText: 'Left a voicemail, will try again at six.' }).waitFor();
    await expect(note.innerText()).resolves.toContain(EMAIL);
    await expect(page.getByRole('region', { name: 'Status history' }).innerText()).resolves.toContain(EMAIL);

    await page.getByRole('link', { name: 'Account' }).click();
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.getByRole('button', { name: 'Sign in with a passkey' }).waitFor();
    // The only console errors are the browser's own notes of the 401s that told the app it was signed out.
    expect(errors.filter((error) => !/status of 401/.test(error))).toEqual([]);
    await context.close();

    // Every step is in the audit log, in order, with who and which lead.
    const mine = auditRows().filter((row) => row.actor === EMAIL);
    const steps = mine.map((row) => `${row.action}${row.leadId ? `:${row.leadId}` : ''}`);
    const expected = [
      'enrol',
      'sign-out',
      'sign-in',
      'list',
      'list',
      'list',
      `view:${id}`,
      `call:${id}`,
      `status:${id}`,
      `note:${id}`,
      'sign-out',
    ];
    let found = 0;
    for (const step of steps) if (step === expected[found]) found += 1;
    expect(found, `audit steps: ${steps.join(', ')}`).toBe(expected.length);

    // The chat heard of the lead, and of nothing the visitor typed (the urgency is the alert's point).
    await expect.poll(() => site.receiver.messages.length, { timeout: 10_000 }).toBe(1);
    const chat = JSON.stringify(site.receiver.messages[0]);
    expect(chat).toContain(id);
    const typed = [
      visitor.firstName,
      visitor.lastName,
      visitor.phone,
      '5550138842',
      '0138842',
      visitor.email,
      visitor.message,
      SOURCE,
      'fentanyl',
    ];
    expect(typed.filter((value) => chat.includes(value))).toEqual([]);
  }, 120_000);
});
