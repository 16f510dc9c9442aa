// The editor online deletes a page into its change set (issue #28, "Missing actions"): the page's settings offer the
// page actions (no more "ask a developer"), the delete dialog names the links to the page and offers a redirect; the
// set then holds the page deleted and the redirect added, as revisions, while the live site still serves the page;
// the change set's page says "Deleted, redirected to ...". axe on the dialog and the change set's page at phone and
// desktop width, light and dark. PAGE_ACTION_SHOTS=<folder> also writes screenshots.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import AxeBuilder from '@axe-core/playwright';
import { launchBrowser, resizeSettled } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { AXE_TAGS, describeViolations } from '../quality/accessibility.ts';
import { signedIn } from './content-helpers.ts';
import { inboxOrigin } from './inbox-helpers.ts';

const PAGE = 'pages/treatment/ambien-addiction.json';
const PAGE_URL = '/treatment/ambien-addiction';
const TARGET = '/treatment/benzodiazepine-addiction';
const SHOTS = process.env.PAGE_ACTION_SHOTS;

let site: RunningSite;
let browser: Browser;
let page: Page;
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** The set's stored revisions, oldest first: which document, and whether it was deleted. */
function revisions(changeId: string) {
  const db = new Database(site.dbFile, { readonly: true, fileMustExist: true });
  try {
    return db
      .prepare('SELECT path, text FROM change_revisions WHERE change_id = ? ORDER BY rowid')
      .all(changeId) as { path: string; text: string | null }[];
  } finally {
    db.close();
  }
}

/** axe (the site's rules) at phone and desktop width, light and dark; the preview frames are the site's pages. */
async function expectAccessible(what: string) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
  ]) {
    await resizeSettled(page, size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
      const { violations } = await new AxeBuilder({ page }).withTags(AXE_TAGS).exclude('iframe').analyze();
      expect.soft(describeViolations(violations), `${what}, ${size.width}, ${scheme}`).toEqual([]);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${what}-${size.width}-${scheme}.png`) });
    }
  }
  await resizeSettled(page, { width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('page actions in the editor online', { timeout: 180_000 }, () => {
  it('deletes a page into the change set, with a redirect, and the set says so in words', async () => {
    page = await signedIn(site, browser, 'ed@example.org', ['--roles', 'editor']);
    page.setDefaultTimeout(30_000);
    const context = page.context();
    const origin = inboxOrigin(site);
    await page.goto(`${origin}/staff/edit/`);
    await page.getByLabel('New change set').fill('Retire the Ambien page');
    await page.getByRole('button', { name: 'Start editing' }).click();
    await page.waitForURL(/\?change=/);
    const changeId = new URL(page.url()).searchParams.get('change') ?? '';
    await page.goto(`${page.url().split('#')[0]}#${PAGE}`);
    await page.reload();

    // The page's settings offer the actions, as the local studio does.
    await page.getByRole('button', { name: 'Delete this page…' }).click();
    const dialog = page.getByRole('dialog', { name: `Delete ${PAGE_URL}?` });
    await dialog.getByText(`3 links in other documents point at ${PAGE_URL}`, { exact: false }).waitFor();
    await dialog
      .getByText('deleted in this change set: visitors still see it until the set is published', {
        exact: false,
      })
      .waitFor();
    // Each document once, with how many of its links lead here.
    await dialog.getByText('pages/index.json (2 links)').waitFor();
    await dialog.getByLabel('Send visitors to').fill(TARGET);
    await page.getByRole('option', { name: TARGET, exact: true }).click();
    await expectAccessible('delete-dialog');
    await dialog.getByRole('button', { name: 'Delete the page' }).click();
    await page.getByText(`Deleted ${PAGE_URL}; its address now leads to ${TARGET}.`).waitFor();
    // The set now changes something: it can be submitted, and says whose approval it needs.
    await page
      .getByTestId('requires')
      .getByText(/clinical reviewer/)
      .waitFor();
    expect(await page.getByRole('button', { name: 'Submit for review' }).isEnabled()).toBe(true);

    // Stored as revisions of the set: the page deleted, then the redirects with the new rule.
    const saved = revisions(changeId);
    expect(saved.map((r) => [r.path, r.text === null])).toEqual([
      [PAGE, true],
      ['site/redirects.json', false],
    ]);
    expect(saved[1]?.text).toContain(`"from": [\n        "${PAGE_URL}"\n      ],\n      "to": "${TARGET}"`);
    // Never the live site.
    expect((await fetch(`${site.url}${PAGE_URL}`, { redirect: 'manual' })).status).toBe(200);

    // The change set's page lists the deletion in words, not as every field removed.
    await page.goto(`${origin}/staff/changes/${changeId}`);
    await page
      .getByText(`(${PAGE}): Deleted, redirected to ${TARGET}. Last saved by`, { exact: false })
      .waitFor();
    // And its review, in one line.
    await page.getByText(`Deleted, redirected to ${TARGET}.`, { exact: true }).waitFor();
    await expectAccessible('change-set');
    await context.close();
  });
});
