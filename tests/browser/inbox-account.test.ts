// A member's account in the inbox: adding a passkey when the session's last passkey check is over 5 minutes old (made
// so here, in the database) asks for the passkey again, then adds the new one; a passkey is removed only after a
// confirmation, never the last; and the sessions list marks this device. Chromium's virtual authenticators: the
// phone's own, then a security key as the second device.
import Database from 'better-sqlite3';
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser, openPage } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { addPasskeyDevice, enrol, inboxOrigin, invite } from './inbox-helpers.ts';

const EMAIL = 'keys@example.org';
let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
});
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const actions = () => {
  const db = new Database(site.dbFile, { readonly: true });
  try {
    return (
      db.prepare('SELECT action FROM audit WHERE actor = ? ORDER BY seq').all(EMAIL) as { action: string }[]
    ).map((row) => row.action);
  } finally {
    db.close();
  }
};

describe('the account screen', () => {
  it('asks for the passkey again before adding one, removes one on confirmation, and marks this device', async () => {
    const { page, context, errors } = await openPage(browser);
    page.setDefaultTimeout(15_000);
    await addPasskeyDevice(context, page);
    await enrol(page, site, await invite(site, EMAIL, false));
    // The sign-in's passkey check, six minutes old.
    const db = new Database(site.dbFile);
    db.prepare('UPDATE sessions SET verified_at = verified_at - 360000').run();
    db.close();

    await addPasskeyDevice(context, page, 'usb');
    await page.goto(`${inboxOrigin(site)}/staff/account`);
    await page.getByText('(This device)').waitFor();
    await expect(page.getByRole('button', { name: 'Remove…' }).count()).resolves.toBe(0);
    await page.getByRole('button', { name: 'Add a passkey on this device' }).click();
    await page.getByRole('status').filter({ hasText: 'The new passkey was added.' }).waitFor();
    const passkeys = page.getByRole('list', { name: 'Your passkeys' }).getByRole('listitem');
    await expect(passkeys.count()).resolves.toBe(2);

    await page.getByRole('button', { name: 'Remove…' }).last().click();
    await page.getByRole('button', { name: 'Remove this passkey' }).click();
    await page.getByRole('status').filter({ hasText: 'The passkey was removed' }).waitFor();
    await expect.poll(() => passkeys.count()).toBe(1);
    await expect.poll(() => page.getByRole('button', { name: 'Remove…' }).count()).toBe(0);

    // The 403 that asked for the passkey again is a refused request, audited at once (staff-refusals.ts).
    expect(actions()).toEqual([
      'enrol',
      'list',
      'refused',
      're-authenticate',
      'passkey-added',
      'passkey-removed',
    ]);
    // The only errors: the browser's notes of the 401 before enrolment and of the 403 that asked for the passkey again.
    expect(errors.filter((error) => !/status of (401|403)/.test(error))).toEqual([]);
    await context.close();
  }, 60_000);
});
