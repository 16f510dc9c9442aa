// Accessibility gate, shared by the phone and the desktop suite (two files, so vitest runs them side by side): axe-core
// on every route, in the light and the dark colour scheme, in Debian's Chromium against the real server and the built
// site. Zero violations of WCAG 2.2 A/AA (with 2.0 and 2.1) and axe's best practices, and zero console errors.
import AxeBuilder from '@axe-core/playwright';
import type { AxeResults } from 'axe-core';
import type { BrowserContext, BrowserContextOptions, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import { NOT_FOUND_PATH, ROUTES } from './routes.ts';

export const AXE_TAGS = ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'wcag22aa', 'best-practice'];
const SCHEMES = ['light', 'dark'] as const;
// Enough of a rule's elements to find the component at fault; the count says how many more there are.
const NODES_SHOWN = 5;

/** One line per violated rule: id, impact, what it asks, and the selectors of the elements that break it. */
export function describeViolations(violations: AxeResults['violations']): string[] {
  return violations.map((violation) => {
    const targets = violation.nodes.map((node) => node.target.join(' >>> '));
    const more = targets.length > NODES_SHOWN ? ` (+${targets.length - NODES_SHOWN} more)` : '';
    return `${violation.id} [${violation.impact ?? 'n/a'}] ${violation.help}: ${targets.slice(0, NODES_SHOWN).join(' | ')}${more}`;
  });
}

/** axe's violations on the page as it is now. */
export async function axeViolations(page: Page): Promise<AxeResults['violations']> {
  const results = await new AxeBuilder({ page })
    .withTags(AXE_TAGS)
    // Only violations travel back: passes and incomplete results of ~1000 elements are most of the run's cost.
    .options({ resultTypes: ['violations'] })
    // Legacy mode runs axe in the page itself instead of gathering frame results in an extra blank page, which
    // halves the time of each run on two cores. Its one limit, cross-origin frames, does not apply: the site embeds
    // none, and axe's frame-tested rule would report one that appeared.
    .setLegacyMode()
    .analyze();
  return results.violations;
}

/** axe finds nothing on the page as it is, in the light and then in the dark scheme. */
async function expectNoViolationsInEitherScheme(page: Page): Promise<void> {
  for (const scheme of SCHEMES) {
    // The same as opening the page with the context's colorScheme option, without loading it twice: the site
    // follows the system's scheme, and Mantine switches when the media query changes.
    await page.emulateMedia({ colorScheme: scheme });
    await expect.poll(() => page.locator('html').getAttribute('data-mantine-color-scheme')).toBe(scheme);
    expect
      .soft(describeViolations(await axeViolations(page)), `axe violations, ${scheme} scheme`)
      .toEqual([]);
  }
}

/** The suite for one device: each route loads once, then axe runs in the light and in the dark scheme. */
export function accessibilitySuite(device: string, options: BrowserContextOptions): void {
  const t = siteUnderTest();

  describe(`accessibility on a ${device}`, () => {
    // One context and tab for the whole suite, reused route after route: a context per route would cost more
    // than the checks themselves.
    let context: BrowserContext;
    let page: Page;
    const errors: string[] = [];

    beforeAll(async () => {
      context = await t.browser.newContext({ ...options, colorScheme: 'light' });
      page = await context.newPage();
      page.on('console', (message) => {
        if (message.type() !== 'error') return;
        // The not-found page is answered with status 404 on purpose, and Chromium reports that status of the document
        // itself as a failed resource. Anything else that fails to load is an error.
        const url = message.location().url;
        if (url.endsWith(NOT_FOUND_PATH) && /status of 404/.test(message.text())) return;
        errors.push(`${message.text()} (${url})`);
      });
      page.on('pageerror', (error) => errors.push(error.message));
    });
    afterAll(async () => {
      await context?.close();
    });

    it.each(ROUTES)('%s: no violations in the light and dark schemes, no console errors', async (path) => {
      errors.length = 0;
      await page.emulateMedia({ colorScheme: 'light' });
      const response = await visit(page, `${t.site.url}${path}`);
      expect(response?.status()).toBe(path === NOT_FOUND_PATH ? 404 : 200);
      // Sections below the first screen are rendered only near the viewport (content-visibility: auto); axe must see
      // every section rendered, or it would skip their contrast checks.
      await page.addStyleTag({ content: '* { content-visibility: visible !important; }' });
      await expectNoViolationsInEitherScheme(page);
      expect.soft(errors, 'console errors').toEqual([]);
    });

    it('a form showing its field errors: no violations in the light and dark schemes', async () => {
      await page.emulateMedia({ colorScheme: 'light' });
      await visit(page, `${t.site.url}/insurance-verification`);
      const form = page.locator('main form').first();
      await form.locator('button[type="submit"]').click();
      await expect.poll(() => form.locator('[aria-invalid="true"]').count()).toBeGreaterThan(1);
      await expectNoViolationsInEitherScheme(page);
    });
  });
}
