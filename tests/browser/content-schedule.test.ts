// A scheduled publish from the browser, in Debian's Chromium: a publisher whose browser is in Berlin picks 9:00 AM on
// the site's clock (SITE_TIMEZONE, Pacific time by default), reads it back with the zone named, and the server stores
// the instant 9:00 AM Pacific is (17:00 UTC in January), not 9:00 AM Berlin. Then the publisher cancels it after a
// confirmation, and the change set holds no schedule. The page passes axe at phone and desktop width, light and dark,
// with a schedule pending; screenshots go to SHOTS_DIR if set.
import type { Browser } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { API, approvedChange, call, expectAccessible, signedIn } from './content-helpers.ts';
import { inboxOrigin } from './inbox-helpers.ts';

let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

type Shown = { schedule: { at: string; state: string } | null; timeZone: string };

describe('a scheduled publish on the site clock', () => {
  it('is picked and read in Pacific time from a browser in Berlin, stored as that instant, and cancelled', async () => {
    const editor = await signedIn(site, browser, 'ed@example.org', ['--roles', 'editor']);
    const reviewer = await signedIn(site, browser, 'maya@example.org', [
      '--roles',
      'reviewer',
      '--name',
      'Maya Chen',
      '--credential',
      'MD',
    ]);
    const publisher = await signedIn(site, browser, 'pub@example.org', ['--roles', 'publisher'], {
      timezoneId: 'Europe/Berlin',
    });
    expect(await publisher.evaluate(() => Intl.DateTimeFormat().resolvedOptions().timeZone)).toBe(
      'Europe/Berlin',
    );
    const id = await approvedChange(editor, reviewer, 'Detox duration, in January', '8-12 days');

    await publisher.goto(`${inboxOrigin(site)}/staff/changes/${id}`);
    const when = publisher.getByLabel('Publish at (Pacific time)');
    await when.fill('2027-01-15T09:00');
    await publisher.getByText('Publishes Jan 15, 2027, 9:00 AM Pacific time.').waitFor();
    await publisher.getByRole('button', { name: 'Schedule', exact: true }).click();
    await publisher
      .getByRole('status')
      .filter({ hasText: 'Scheduled for Jan 15, 2027, 9:00 AM Pacific time' })
      .waitFor();
    await publisher
      .getByText('Scheduled by pub@example.org for Jan 15, 2027, 9:00 AM Pacific time.')
      .waitFor();
    // Stored as the instant 9:00 AM Pacific is: 17:00 UTC (9:00 AM in Berlin would be 08:00 UTC).
    const scheduled = await call<Shown>(publisher, 'GET', `${API}/${id}`);
    expect(scheduled.body).toMatchObject({
      timeZone: 'America/Los_Angeles',
      schedule: { at: '2027-01-15T17:00:00.000Z', state: 'pending' },
    });
    await publisher.getByText('Publishes on its own at Jan 15, 2027, 9:00 AM Pacific time.').waitFor();
    await expectAccessible(
      publisher,
      'a change set with a pending schedule',
      'change-scheduled',
      process.env.SHOTS_DIR,
    );

    // Cancelled, after a confirmation that starts on "Keep it".
    await publisher.getByRole('button', { name: 'Cancel the schedule…' }).click();
    await expect.poll(() => publisher.evaluate(() => document.activeElement?.textContent)).toBe('Keep it');
    await publisher
      .getByText(
        'Cancel the publish at Jan 15, 2027, 9:00 AM Pacific time? The change set stays approved and in review.',
      )
      .waitFor();
    await expectAccessible(
      publisher,
      'the cancel confirmation',
      'change-cancel-asked',
      process.env.SHOTS_DIR,
    );
    await publisher.getByRole('button', { name: 'Yes, cancel the schedule' }).click();
    await publisher
      .getByRole('status')
      .filter({ hasText: 'Schedule cancelled: it will not be published on its own' })
      .waitFor();
    await expect.poll(() => publisher.getByText(/Scheduled by pub@example\.org/).count()).toBe(0);
    const cancelled = await call<Shown & { state: string }>(publisher, 'GET', `${API}/${id}`);
    expect(cancelled.body).toMatchObject({ schedule: null, state: 'in_review' });
  }, 240_000);
});
