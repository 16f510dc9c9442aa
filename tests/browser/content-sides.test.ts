// The page before and after, in place on the review, in Debian's Chromium: a change set of 20 pages (the fentanyl
// page's detox duration and 19 other pages' descriptions). At 1280 px the first page's two frames stand side by side,
// scaled to fit, titled, and show the page as live and as changed; the pages further down have no frame until the
// reviewer scrolls to them (20 pages never ask for 40 renders at once). At 390 px one frame shows at a time, with a
// before/after switch. axe at both widths, light and dark; screenshots go to SHOTS_DIR if set.
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import { launchBrowser, resizeSettled } from '../helpers/browser.ts';
import { startSite, type RunningSite } from '../helpers/site-under-test.ts';
import { API, call, expectAccessible, setDuration, signedIn, SIZES } from './content-helpers.ts';
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

const FENTANYL = '/treatment/fentanyl-addiction';
const frameOf = (page: Page, path: string, side: 'before' | 'after') =>
  page.locator(
    `iframe[title="${path}, ${side === 'before' ? 'before (live now)' : 'after (with this change set)'}"]`,
  );
/** The text of a frame's page, once it has loaded. */
async function frameText(page: Page, path: string, side: 'before' | 'after'): Promise<string> {
  const frame = await (await frameOf(page, path, side).elementHandle())?.contentFrame();
  if (!frame) throw new Error(`no frame for ${path} ${side}`);
  await frame.waitForLoadState();
  return (await frame.locator('body').textContent()) ?? '';
}

/** What the reviewer sees now (the screen, not the whole page), into SHOTS_DIR. */
async function shot(page: Page, name: string): Promise<void> {
  const shots = process.env.SHOTS_DIR;
  if (shots) await page.screenshot({ path: join(shots, `${name}.png`) });
}

describe('the page before and after, in place', () => {
  it('shows them side by side on a wide screen, one at a time on a phone, and only near the screen', async () => {
    const editor = await signedIn(site, browser, 'ed@example.org', ['--roles', 'editor']);
    const reviewer = await signedIn(site, browser, 'maya@example.org', ['--roles', 'reviewer']);
    const made = await call<{ id: string }>(editor, 'POST', API, { title: 'Twenty pages' });
    const id = made.body.id;
    await setDuration(editor, id, '10-14 days');
    const others = readdirSync(join(ROOT, 'pages/treatment'))
      .filter((name) => name !== 'fentanyl-addiction.json')
      .slice(0, 19);
    expect(others).toHaveLength(19);
    for (const name of others) {
      const file = `pages/treatment/${name}`;
      const copy = await call<{ document: { description: string }; version: string }>(
        editor,
        'GET',
        `${API}/${id}/documents?file=${file}`,
      );
      const document = { ...copy.body.document, description: `${copy.body.document.description} Reviewed.` };
      const saved = await call(editor, 'PUT', `${API}/${id}/documents?file=${file}`, {
        document,
        baseVersion: copy.body.version,
      });
      expect(saved.status, file).toBe(200);
    }

    await reviewer.goto(`${inboxOrigin(site)}/staff/changes/${id}`);
    const first = `/treatment/${others[0]!.replace('.json', '')}`;
    // The review comes after the set's list of its 20 documents.
    await reviewer.getByRole('heading', { name: `pages${first}.json` }).scrollIntoViewIfNeeded();
    await frameOf(reviewer, first, 'after').waitFor();
    // Side by side, both whole within the column, at one height.
    const [before, after] = await Promise.all([
      frameOf(reviewer, first, 'before').boundingBox(),
      frameOf(reviewer, first, 'after').boundingBox(),
    ]);
    expect(before && after).toBeTruthy();
    expect(Math.abs(before!.y - after!.y)).toBeLessThan(1);
    expect(before!.x + before!.width).toBeLessThan(after!.x);
    expect(after!.x + after!.width).toBeLessThanOrEqual(SIZES[1].width);
    expect(await frameText(reviewer, first, 'before')).toContain(`Before: ${first} as visitors see it now`);
    expect(await frameText(reviewer, first, 'after')).toContain(
      `After: ${first} with this change set (not published)`,
    );
    // 20 pages, but only the frames near the screen are made.
    expect(await reviewer.getByText('Shown when you scroll to it.').count()).toBeGreaterThan(20);
    expect(await reviewer.locator('iframe').count()).toBeLessThanOrEqual(6);

    // Scrolled to: the fentanyl page's frames come, the duration as live and as changed.
    await reviewer.getByRole('heading', { name: `pages${FENTANYL}.json` }).scrollIntoViewIfNeeded();
    await frameOf(reviewer, FENTANYL, 'after').waitFor();
    expect(await frameText(reviewer, FENTANYL, 'before')).toContain('7-14 days');
    expect(await frameText(reviewer, FENTANYL, 'after')).toContain('10-14 days');
    await shot(reviewer, 'review-sides-frames-1280');

    // On a phone: one frame at a time, at phone width, with a before/after switch.
    await resizeSettled(reviewer, SIZES[0]);
    await reviewer.getByRole('heading', { name: `pages${FENTANYL}.json` }).scrollIntoViewIfNeeded();
    const switcher = reviewer.getByRole('group', { name: `Show ${FENTANYL} before or after` });
    await expect
      .poll(() => switcher.getByRole('button', { name: 'After', exact: true }).getAttribute('aria-pressed'))
      .toBe('true');
    await expect.poll(() => frameOf(reviewer, FENTANYL, 'before').count()).toBe(0);
    const phoneFrame = await frameOf(reviewer, FENTANYL, 'after').boundingBox();
    expect(phoneFrame!.x + phoneFrame!.width).toBeLessThanOrEqual(SIZES[0].width);
    await switcher.getByRole('button', { name: 'Before', exact: true }).click();
    await frameOf(reviewer, FENTANYL, 'before').waitFor();
    expect(await frameOf(reviewer, FENTANYL, 'after').count()).toBe(0);
    expect(await frameText(reviewer, FENTANYL, 'before')).toContain('7-14 days');
    await shot(reviewer, 'review-sides-frames-390');

    await resizeSettled(reviewer, SIZES[1]);
    await reviewer.evaluate(() => window.scrollTo(0, 0));
    await expectAccessible(
      reviewer,
      'the review with pages before and after',
      'review-sides',
      process.env.SHOTS_DIR,
    );
  }, 300_000);
});
