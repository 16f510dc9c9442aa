// Composing pages in the studio: reordering blocks, selecting them from the preview, a new page from a template, and
// the studio's own accessibility.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checked, field, openStudio, saveThroughDialog, studioInBrowser } from './studio-helpers.ts';
import { runValidateCli } from '../../scripts/validate.ts';
import { runCli } from '../helpers/run-cli.ts';

const t = studioInBrowser();

const outline = async (page: Page) =>
  page
    .locator('[data-testid^="outline-"]')
    .evaluateAll((items) => items.map((item) => item.textContent ?? ''));
const types = (file: string) =>
  (JSON.parse(t.studio.read(file)) as { blocks: { type: string }[] }).blocks.map((b) => b.type);

describe('composing pages in the studio', { timeout: 90_000 }, () => {
  it('reorders blocks by keyboard, announced to screen readers, and saves the new order', async () => {
    const name = 'pages/services/dual-diagnosis.json';
    const before = types(name);
    const { page, context } = await openStudio(t.browser, t.studio, name);
    const first = await outline(page);
    await page.getByRole('button', { name: /^Reorder block 2:/ }).focus();
    const live = page.locator('[id^="DndLiveRegion"]');
    await page.keyboard.press('Space');
    await live.filter({ hasText: /over position 2 of/ }).waitFor({ state: 'attached' });
    await page.keyboard.press('ArrowDown');
    await live.filter({ hasText: /over position 3 of/ }).waitFor({ state: 'attached' });
    await page.keyboard.press('Space');
    await live.filter({ hasText: /dropped at position 3 of \d+/ }).waitFor({ state: 'attached' });
    await expect.poll(() => outline(page)).not.toEqual(first);
    const after = await outline(page);
    expect(after[1]?.slice(3)).toBe(first[2]?.slice(3));
    expect(after[2]?.slice(3)).toBe(first[1]?.slice(3));
    await checked(page);
    await saveThroughDialog(page);
    expect(types(name)).toEqual([before[0], before[2], before[1], ...before.slice(3)]);
    await context.close();
  });

  it('reorders blocks by dragging with the mouse', async () => {
    const name = 'pages/services/elite-nursing.json';
    const before = types(name);
    const { page, context } = await openStudio(t.browser, t.studio, name);
    const handle = page.getByRole('button', { name: /^Reorder block 3:/ });
    const target = page.getByTestId('outline-1');
    const from = await handle.boundingBox();
    const to = await target.boundingBox();
    if (!from || !to) throw new Error('outline not laid out');
    await page.mouse.move(from.x + from.width / 2, from.y + from.height / 2);
    await page.mouse.down();
    for (let step = 1; step <= 10; step++)
      await page.mouse.move(from.x + from.width / 2, from.y + ((to.y + 4 - from.y) * step) / 10);
    await page.mouse.up();
    await checked(page);
    await saveThroughDialog(page);
    expect(types(name)).toEqual([before[0], before[2], before[1], ...before.slice(3)]);
    await context.close();
  });

  it('clicking a block in the preview selects it in the outline, and the other way round', async () => {
    const { page, context } = await openStudio(t.browser, t.studio, 'pages/index.json');
    const preview = page.frameLocator('[data-testid="preview-desktop"]');
    await preview
      .locator('[data-studio-block="2"] > *')
      .first()
      .click({ position: { x: 30, y: 30 } });
    await expect
      .poll(() => page.locator('[data-outline-index="2"]').getAttribute('aria-current'))
      .toBe('true');
    await page.getByTestId('outline-4').click();
    await expect
      .poll(() => preview.locator('[data-studio-block="4"]').getAttribute('data-studio-selected'))
      .toBe('true');
    await page.getByTestId('fold-marker').waitFor();
    await context.close();
  });

  it('makes a new page from a template that npm run validate accepts', async () => {
    const { page, context } = await openStudio(t.browser, t.studio, 'pages/index.json');
    await page.getByRole('button', { name: 'New page' }).click();
    const address = page.getByLabel('Address');
    await address.fill('/services/medical-detox');
    await page.getByText('/services/medical-detox is already a page').waitFor();
    await address.fill('/detox');
    await page.getByText('is an old address that redirects').waitFor();
    await address.fill('/services/family-program');
    await page.getByRole('button', { name: 'Create draft' }).click();
    await page.getByText('pages/services/family-program.json').first().waitFor();
    await field(page, '/title').fill('Family Program | Coastline Recovery Center');
    await field(page, '/name').fill('Family Program');
    await field(page, '/description').fill(
      'Support for families of people in treatment: weekly sessions, education and a place to be heard.',
    );
    await field(page, '/keywords/0').fill('family program');
    await page.getByTestId('outline-0').click();
    await field(page, '/blocks/0/heading').fill('Family Program');
    await checked(page);
    const shown = await page.locator('.mantine-InputWrapper-error, [role="note"]').allTextContents();
    expect([await page.getByTestId('error-count').textContent(), ...shown]).toEqual(['No errors']);
    await saveThroughDialog(page);
    const saved = JSON.parse(t.studio.read('pages/services/family-program.json')) as Record<string, unknown>;
    expect(saved).toMatchObject({ $schema: '../../schemas/page.schema.json', phoneLine: 'primary' });
    expect(saved.sitemap).toBeDefined();
    const validated = await runCli(runValidateCli, ['pages/services/family-program.json'], {
      cwd: t.studio.dir,
      env: process.env,
    });
    expect(validated).toMatchObject({ code: 0, err: '' });
    await context.close();
  });

  it('passes axe-core', async () => {
    const { page, context } = await openStudio(t.browser, t.studio, 'pages/index.json');
    await page.getByTestId('outline-0').click();
    const results = await new AxeBuilder({ page }).exclude('iframe').analyze();
    expect(
      results.violations.map((v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`),
    ).toEqual([]);
    await context.close();
  });

  it('opens every page and shows the form of every block type without changing the document', async () => {
    const files = (await (await t.studio.api('/studio-api/files')).json()) as {
      file: string;
      kind: string;
    }[];
    const { page, context } = await openStudio(t.browser, t.studio, 'pages/index.json');
    const seen = new Set<string>();
    for (const { file } of files.filter((f) => f.kind === 'page')) {
      await page.locator(`[data-file="${file}"]`).click();
      await page.getByText(file, { exact: true }).waitFor();
      const blocks = types(file);
      for (const [i, type] of blocks.entries()) {
        if (seen.has(type)) continue;
        seen.add(type);
        await page.getByTestId(`outline-${i}`).click();
      }
      expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled(), file).toBe(true);
      expect(await page.getByText('(unsaved changes)').count(), file).toBe(0);
    }
    expect(seen.size).toBeGreaterThan(10);
    await context.close();
  }, 300_000);
});
