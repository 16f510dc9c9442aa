// Review and publish from the browser (issue #28's journey), in Debian's Chromium with three virtual authenticators:
// an editor (who also reviews, with a credential) changes the fentanyl page's detox duration through the content API
// (the editor's screen is another branch), cannot approve it (the button refused, with the reason), a clinical reviewer
// approves it in the app, the editor edits again and the approval shows stale, the reviewer approves again, a publisher
// publishes it in the app, and the public page shows the change with "Medically reviewed by", without a restart. The
// page's history shows the release with its author and reviewer, and restoring the earlier version makes a change set.
// The change sets list, a change set and the history pass axe at phone and desktop width, light and dark; screenshots
// go to SHOTS_DIR if set.
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { launchBrowser } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import {
  API,
  call,
  expectAccessible as accessible,
  PAGE_FILE,
  setDuration,
  signedIn as signedInTo,
} from './content-helpers.ts';
import { inboxOrigin } from './inbox-helpers.ts';

const PAGE_URL = '/treatment/fentanyl-addiction';
const SHOTS = process.env.SHOTS_DIR;

let site: RunningSite;
let browser: Browser;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

const signedIn = (email: string, args: string[]) => signedInTo(site, browser, email, args);
const expectAccessible = (page: Page, what: string, shot: string) => accessible(page, what, shot, SHOTS);

describe('review and publish from the browser', () => {
  it('takes a clinical change from the editor through review to the live page', async () => {
    const editor = await signedIn('ed@example.org', [
      '--roles',
      'editor,reviewer',
      '--name',
      'Ed Park',
      '--credential',
      'RN',
    ]);
    const reviewer = await signedIn('maya@example.org', [
      '--roles',
      'reviewer',
      '--name',
      'Maya Chen',
      '--credential',
      'MD, Addiction Medicine',
    ]);
    const publisher = await signedIn('pub@example.org', ['--roles', 'publisher']);
    // Editorial staff see no leads: their staff area is the site's content, and it never listens for leads (a stream
    // the server refuses them would only say "Reconnecting").
    const asked: string[] = [];
    publisher.on('request', (request) => asked.push(new URL(request.url()).pathname));
    await publisher.goto(`${inboxOrigin(site)}/staff/`);
    await publisher.getByRole('heading', { name: 'Change sets', level: 1 }).waitFor();
    expect(new URL(publisher.url()).pathname).toBe('/staff/changes');
    await expect(publisher.title()).resolves.toBe('Site content');
    await expect(publisher.getByRole('link', { name: 'Leads' }).count()).resolves.toBe(0);
    expect(
      asked.filter((path) => path.includes('/staff/api/events') || path.includes('/staff/api/leads')),
    ).toEqual([]);

    // 1. The editor changes the detox duration, and submits it.
    const made = await call<{ id: string }>(editor, 'POST', API, { title: 'Fentanyl detox duration' });
    expect(made.status).toBe(201);
    const id = made.body.id;
    await setDuration(editor, id, '10-14 days');
    expect((await call(editor, 'POST', `${API}/${id}/submit`, {})).status).toBe(200);

    // 2. The editor cannot approve it: the button is refused, with the reason.
    await editor.getByRole('link', { name: 'Changes' }).click();
    await editor.getByRole('heading', { name: 'Change sets', level: 1 }).waitFor();
    await editor.getByRole('link', { name: 'Fentanyl detox duration' }).click();
    await editor.getByRole('heading', { name: 'Fentanyl detox duration', level: 1 }).waitFor();
    const refused = editor.getByRole('button', { name: 'Approve' });
    await expect.poll(() => refused.isDisabled()).toBe(true);
    await editor.getByText('You edited this change set: someone else must approve it (four eyes).').waitFor();

    // 3. The reviewer reads the change, field by field, and approves it.
    await reviewer.goto(`${inboxOrigin(site)}/staff/changes/${id}`);
    await reviewer.getByText('Needs approval from a clinical reviewer (medical claims).').waitFor();
    await reviewer.getByText('Timeline (block 5) › Items, item 1 › Duration').waitFor();
    await reviewer.getByText('medical claims: needs a clinical reviewer').waitFor();
    await reviewer.locator('ins', { hasText: '10-14 days' }).waitFor();
    // The page rendered after the change, as visitors would see it (opened in a tab of its own).
    const afterHref = await reviewer
      .getByRole('link', { name: 'The page after (with this change set)' })
      .getAttribute('href');
    expect(
      await reviewer.evaluate((href) => fetch(href ?? '').then((response) => response.text()), afterHref),
    ).toContain('10-14 days');
    await reviewer.getByRole('button', { name: 'Approve' }).click();
    await reviewer.getByRole('status').filter({ hasText: 'Approved' }).waitFor();
    await reviewer.getByText(/maya@example\.org approved medical claims/).waitFor();

    // 4. The editor edits again: the approval shows stale.
    await setDuration(editor, id, '12-14 days');
    await reviewer.reload();
    await reviewer.getByText('Stale: the content changed after it').waitFor();
    await reviewer.getByText('Still missing an approval from a clinical reviewer.').waitFor();
    await expectAccessible(reviewer, 'the change set page', 'change');

    // 5. The reviewer approves again.
    await reviewer.getByRole('button', { name: 'Approve' }).click();
    await reviewer.getByRole('status').filter({ hasText: 'Approved' }).waitFor();

    // 6. The publisher publishes it.
    await publisher.getByRole('link', { name: 'Changes' }).click();
    await expectAccessible(publisher, 'the change sets list', 'changes');
    await publisher.getByRole('link', { name: 'Fentanyl detox duration' }).click();
    await publisher.getByRole('button', { name: 'Publish' }).click();
    await publisher
      .getByRole('status')
      .filter({ hasText: /Published: Live on \d+ of \d+/ })
      .waitFor({ timeout: 90_000 });
    await publisher.getByText(/^Live on \d+ of \d+$/).waitFor();

    // 7. The public page shows the change and the review line, from the same server: no restart.
    await expect
      .poll(async () => (await fetch(`${site.url}${PAGE_URL}`)).text(), { timeout: 30_000 })
      .toContain('12-14 days');
    const html = await (await fetch(`${site.url}${PAGE_URL}`)).text();
    expect(html).toMatch(/Medically reviewed by[^<]*(<[^>]+>)*[^<]*Maya Chen/);

    // 8. The page's history: the release with its author and reviewer; restoring the earlier version makes a change set.
    await editor.goto(`${inboxOrigin(site)}/staff/history?file=${encodeURIComponent(PAGE_FILE)}`);
    const published = editor.getByRole('article', { name: /^Release \d+$/ }).first();
    await published
      .getByText(
        'From the change set “Fentanyl detox duration” by ed@example.org, reviewed by Maya Chen, MD, Addiction Medicine.',
      )
      .waitFor();
    await published.getByText('Live now').waitFor();
    await expectAccessible(editor, 'the page history', 'history');
    await editor
      .getByRole('article', { name: 'Release 1' })
      .getByRole('button', { name: 'Restore this version' })
      .click();
    await editor.getByRole('heading', { name: `Restore ${PAGE_FILE} to release 1`, level: 1 }).waitFor();
    await editor.getByText('Draft', { exact: true }).waitFor();
    await editor.locator('ins', { hasText: '7-14 days' }).waitFor();
    // Nothing live changed: the restore is a change set to review.
    expect(await (await fetch(`${site.url}${PAGE_URL}`)).text()).toContain('12-14 days');
  }, 300_000);
});
