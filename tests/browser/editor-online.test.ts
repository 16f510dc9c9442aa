// The studio's editor online (/staff/edit/, issue #28 items 2 and 3), as an editor uses it: signed in with a passkey
// (Chromium's virtual authenticator), a change set started, the fentanyl page's detox duration changed; the draft
// autosaves (a revision is in the store); a colleague's save makes the next save stale, and the editor sees whose it
// was, field by field, and keeps both; a misspelled word shows at its field and, above, as what publishing would
// refuse; then submits for review and reads what it needs. axe on the change-set screen and the editor at phone and
// desktop width, light and dark. EDITOR_SHOTS=<folder> also writes screenshots.
import Database from 'better-sqlite3';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import { runStaffCli } from '../../server/cli/staff.ts';
import { launchBrowser, resizeSettled } from '../helpers/browser.ts';
import { runCli } from '../helpers/run-cli.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import AxeBuilder from '@axe-core/playwright';
import { AXE_TAGS, describeViolations } from '../quality/accessibility.ts';
import { StaffClient } from '../server/staff/staff-client.ts';
import { addPasskeyDevice, inboxOrigin } from './inbox-helpers.ts';

const PAGE = 'pages/treatment/fentanyl-addiction.json';
const DURATION = '/blocks/4/items/0/duration';
const SHOTS = process.env.EDITOR_SHOTS;

let site: RunningSite;
let browser: Browser;
let page: Page;
let changeId = '';
beforeAll(async () => {
  [site, browser] = await Promise.all([startSite(), launchBrowser()]);
}, 120_000);
afterAll(async () => {
  await browser?.close();
  await site?.stop();
});

/** `npm run staff -- invite <email> --roles ... --name ...`: the enrolment token. */
async function inviteToken(email: string, roles: string, name: string): Promise<string> {
  const { code, out, err } = await runCli(runStaffCli, ['invite', email, '--roles', roles, '--name', name], {
    cwd: ROOT,
    env: { ...process.env, LEADS_DB: site.dbFile },
  });
  const fragment = /\/staff\/enrol#(\S+)/.exec(out)?.[1];
  if (code !== 0 || !fragment) throw new Error(`no enrolment link (exit ${code}): ${out}${err}`);
  return new URLSearchParams(fragment).get('token') ?? fragment;
}

/** What the store holds: the set's revisions of the page, oldest first, and the set's state. */
function stored() {
  const db = new Database(site.dbFile, { readonly: true, fileMustExist: true });
  try {
    const revisions = db
      .prepare('SELECT actor, text FROM change_revisions WHERE change_id = ? AND path = ? ORDER BY version')
      .all(changeId, PAGE) as { actor: string; text: string }[];
    const state = (
      db.prepare('SELECT state FROM change_sets WHERE id = ?').get(changeId) as { state: string }
    ).state;
    return { revisions, state };
  } finally {
    db.close();
  }
}

/** axe (the site's rules) on the editor; its preview frames are the site's own pages, which tests/quality/ gates. */
const axeViolations = async (on: Page) =>
  (await new AxeBuilder({ page: on }).withTags(AXE_TAGS).exclude('iframe').analyze()).violations;

const field = (pointer: string) => page.locator(`[data-pointer="${pointer}"]`).first();
const checked = () =>
  page.waitForFunction(
    () => document.querySelector('[data-testid="error-count"]')?.textContent !== 'Checking…',
    undefined,
    { timeout: 20_000 },
  );

async function expectAccessible(what: string) {
  for (const size of [
    { width: 390, height: 844 },
    { width: 1280, height: 800 },
    { width: 1366, height: 900 },
  ]) {
    await resizeSettled(page, size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
      if (size.width !== 1366)
        expect
          .soft(describeViolations(await axeViolations(page)), `${what}, ${size.width}, ${scheme}`)
          .toEqual([]);
      if (SHOTS) await page.screenshot({ path: join(SHOTS, `${what}-${size.width}-${scheme}.png`) });
    }
  }
  await resizeSettled(page, { width: 1280, height: 800 });
  await page.emulateMedia({ colorScheme: 'light' });
}

describe('the editor online', { timeout: 180_000 }, () => {
  it('signs an editor in and starts a change set', async () => {
    const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
    page = await context.newPage();
    page.setDefaultTimeout(30_000);
    await addPasskeyDevice(context, page);
    const token = await inviteToken('ed@example.org', 'editor', 'Ed Park');
    const origin = inboxOrigin(site);
    // Signed out, the editor sends staff to sign in first.
    await page.goto(`${origin}/staff/edit/`);
    expect(new URL(page.url()).pathname).toBe('/staff/');
    const enrolled = page.waitForResponse((r) => r.url().endsWith('/staff/api/enrol/verify'));
    await page.goto(`${origin}/staff/enrol#token=${token}`);
    await page.getByRole('button', { name: 'Create a passkey' }).click();
    expect((await enrolled).status()).toBe(200);

    await page.goto(`${origin}/staff/edit/`);
    await page.getByRole('heading', { name: 'Edit the site' }).waitFor();
    await expectAccessible('change-sets');
    await page.getByLabel('New change set').fill('Fentanyl page: detox duration');
    await page.getByRole('button', { name: 'Start editing' }).click();
    await page.waitForURL(/\?change=/);
    changeId = new URL(page.url()).searchParams.get('change') ?? '';
    expect(changeId).not.toBe('');
    await page.getByText('Editing in').getByText('Fentanyl page: detox duration').waitFor();
  });

  it('changes the detox duration, and the draft autosaves into the change set', async () => {
    // The editor opens the document its address names (a change of the fragment alone does not reload it).
    await page.goto(`${page.url().split('#')[0]}#${PAGE}`);
    await page.reload();
    await page.getByRole('button', { name: 'Save', exact: true }).waitFor();
    await checked();
    await page.getByTestId('outline-4').click();
    await field(DURATION).fill('10-14 days');
    await page
      .getByTestId('autosave')
      .getByText(/^Draft saved at/)
      .waitFor();
    const { revisions } = stored();
    expect(revisions.length).toBe(1);
    expect(revisions[0]?.actor).toBe('ed@example.org');
    expect(revisions[0]?.text).toContain('"duration": "10-14 days"');
    // The preview is the real renderer, at phone and desktop width.
    await page.frameLocator('[data-testid="preview-desktop"]').getByText('10-14 days').first().waitFor();
    await expectAccessible('editor');
  });

  it('shows whose save made the next one stale, field by field, and keeps both', async () => {
    const maya = new StaffClient(inboxOrigin(site));
    expect((await maya.enrol(await inviteToken('maya@example.org', 'editor', 'Maya Chen'))).status).toBe(200);
    const api = `/content/changes/${changeId}/documents?file=${PAGE}`;
    // The editor types; before the draft autosaves, a colleague saves another field of the same page.
    await field(DURATION).fill('10-21 days');
    const theirs = await maya.json<{ document: { blocks: { heading?: string }[] }; version: string }>(
      await maya.get(api),
    );
    theirs.document.blocks[0]!.heading = 'Fentanyl addiction treatment, day and night';
    await maya.json(
      await maya.request('PUT', api, { document: theirs.document, baseVersion: theirs.version }),
    );
    await maya.request('POST', `/content/changes/${changeId}/presence?file=${PAGE}`);
    const conflict = page.getByTestId('conflict');
    await conflict
      .getByText(/was changed by maya@example\.org \(saved at [^)]+\) since you opened it/)
      .waitFor();
    await page
      .getByTestId('presence')
      .getByText(/Maya Chen/)
      .waitFor();
    expect(stored().revisions.length).toBe(2);
    await conflict.getByRole('button', { name: /compare/i }).click();
    await conflict.getByText(/day and night/).waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'stale-save-1280-light.png') });
    await page.getByRole('button', { name: 'Keep my edits on top of the new version' }).click();
    await page
      .getByTestId('autosave')
      .getByText(/^Draft saved at/)
      .waitFor();
    const { revisions } = stored();
    expect(revisions.length).toBe(3);
    expect(revisions[2]?.text).toContain('"duration": "10-21 days"');
    expect(revisions[2]?.text).toContain('day and night');
  });

  it('flags a misspelling at its field as the local studio does, and says before submit that publishing refuses it', async () => {
    const HEADING = '/blocks/0/heading';
    await page.getByTestId('outline-0').click();
    await field(HEADING).fill('Fentanyl addiction treatment at our centre, day and night');
    await page
      .getByText(/“centre” is British spelling; the site is written in American English: “center”/)
      .first()
      .waitFor();
    const misspelled = page.getByTestId('misspelled');
    await misspelled
      .getByText(/Publishing this change set is refused until these words are corrected/)
      .waitFor();
    await misspelled.getByText(new RegExp(`${PAGE}: “centre” is British spelling`)).waitFor();
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'misspelled-1280-light.png') });
    await field(HEADING).fill('Fentanyl addiction treatment, day and night');
    await misspelled.waitFor({ state: 'detached' });
    expect(stored().revisions.at(-1)?.text).toContain(
      '"heading": "Fentanyl addiction treatment, day and night"',
    );
  });

  it('submits for review, saying what it needs in plain words', async () => {
    await page
      .getByTestId('requires')
      .getByText(/clinical reviewer/)
      .waitFor();
    await page.getByRole('button', { name: 'Submit for review' }).click();
    await page
      .getByTestId('submitted')
      .getByText(/a clinical reviewer \(a reviewer with a clinical credential\)/)
      .waitFor();
    expect(stored().state).toBe('in_review');
    if (SHOTS) await page.screenshot({ path: join(SHOTS, 'submitted-1280-light.png') });
  });
});
