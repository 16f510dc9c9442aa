// What the content screens' browser tests share: a member invited with `npm run staff -- invite ... --roles ...` and
// enrolled with a passkey in a browser context of their own (its options: a time zone, say), a content API request made
// from the member's page with its session, the fentanyl page's detox duration set in a change set, and the axe check
// at phone and desktop width, light and dark, with screenshots to `shots` when given.
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import type { Browser, BrowserContextOptions, Page } from 'playwright-core';
import { expect } from 'vitest';
import { ROOT } from '../../content/paths.ts';
import { runStaffCli } from '../../server/cli/staff.ts';
import { resizeSettled } from '../helpers/browser.ts';
import { runCli } from '../helpers/run-cli.ts';
import type { RunningSite } from '../helpers/site-under-test.ts';
import { axeViolations, describeViolations } from '../quality/accessibility.ts';
import { addPasskeyDevice, inboxOrigin } from './inbox-helpers.ts';

export const PAGE_FILE = 'pages/treatment/fentanyl-addiction.json';
export const API = '/staff/api/content/changes';
export const SIZES = [
  { width: 390, height: 844 },
  { width: 1280, height: 800 },
] as const;

export async function signedIn(
  site: RunningSite,
  browser: Browser,
  email: string,
  args: string[],
  options: BrowserContextOptions = {},
): Promise<Page> {
  const { code, out, err } = await runCli(runStaffCli, ['invite', email, ...args], {
    cwd: ROOT,
    env: { ...process.env, LEADS_DB: site.dbFile },
  });
  const link = /\/staff\/enrol(#\S+)/.exec(out);
  if (code !== 0 || !link?.[1]) throw new Error(`no enrolment link (exit ${code}): ${out}${err}`);
  const context = await browser.newContext({ viewport: SIZES[1], ...options });
  const page = await context.newPage();
  page.setDefaultTimeout(20_000);
  await addPasskeyDevice(context, page);
  await page.goto(`${inboxOrigin(site)}/staff/enrol${link[1]}`);
  await page.getByRole('button', { name: 'Create a passkey' }).click();
  await page.getByRole('link', { name: 'Account' }).waitFor();
  return page;
}

export function call<T>(
  page: Page,
  method: string,
  path: string,
  body?: unknown,
): Promise<{ status: number; body: T }> {
  return page.evaluate(
    async ({ method, path, body }) => {
      const response = await fetch(path, {
        method,
        headers: {
          'X-Staff-Request': '1',
          ...(body === undefined ? {} : { 'Content-Type': 'application/json' }),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return { status: response.status, body: (await response.json()) as T };
    },
    { method, path, body },
  );
}

type Document = { blocks: { items?: { duration?: string }[] }[] };

export async function setDuration(editor: Page, id: string, duration: string): Promise<void> {
  const copy = await call<{ document: Document; version: string }>(
    editor,
    'GET',
    `${API}/${id}/documents?file=${PAGE_FILE}`,
  );
  const document = structuredClone(copy.body.document);
  const step = document.blocks[4]?.items?.[0];
  if (!step) throw new Error('the fentanyl page has no timeline step to change');
  step.duration = duration;
  const saved = await call(editor, 'PUT', `${API}/${id}/documents?file=${PAGE_FILE}`, {
    document,
    baseVersion: copy.body.version,
  });
  expect(saved.status).toBe(200);
}

/** A change set of the detox duration, made and submitted by `editor`, approved by `reviewer`, through the API. */
export async function approvedChange(editor: Page, reviewer: Page, title: string, duration: string) {
  const made = await call<{ id: string }>(editor, 'POST', API, { title });
  expect(made.status).toBe(201);
  await setDuration(editor, made.body.id, duration);
  expect((await call(editor, 'POST', `${API}/${made.body.id}/submit`, {})).status).toBe(200);
  expect((await call(reviewer, 'POST', `${API}/${made.body.id}/approve`, {})).status).toBe(200);
  return made.body.id;
}

export async function expectAccessible(page: Page, what: string, shot: string, shots?: string) {
  for (const size of SIZES) {
    await resizeSettled(page, size);
    for (const scheme of ['light', 'dark'] as const) {
      await page.emulateMedia({ colorScheme: scheme });
      await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
      expect
        .soft(describeViolations(await axeViolations(page)), `${what}, ${size.width}, ${scheme}`)
        .toEqual([]);
      if (shots) {
        mkdirSync(shots, { recursive: true });
        await page.screenshot({ path: join(shots, `${shot}-${size.width}-${scheme}.png`), fullPage: true });
      }
      const sideways = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect
        .soft(sideways, `${what} at ${size.width} scrolls sideways by ${sideways} px`)
        .toBeLessThanOrEqual(0);
    }
  }
  await resizeSettled(page, SIZES[1]);
}
