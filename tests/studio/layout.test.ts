// The studio on the laptops content staff use (1280 and 1366 px wide) and on a phone: the desktop preview is whole,
// it stays in view while a long form is typed in, and the screens pass axe-core.
import AxeBuilder from '@axe-core/playwright';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { checked, field, openStudio, studioInBrowser } from './studio-helpers.ts';

const t = studioInBrowser();

const NAME = 'pages/services/medical-detox.json';

/** The frame's box on screen, and the window's size. */
const placed = (page: Page, testId: string) =>
  page.getByTestId(testId).evaluate((frame) => {
    const box = frame.parentElement!.getBoundingClientRect();
    return {
      left: box.left,
      right: box.right,
      top: box.top,
      bottom: box.bottom,
      width: innerWidth,
      height: innerHeight,
      scrollWidth: document.documentElement.scrollWidth,
    };
  });

const violations = async (page: Page) =>
  (await new AxeBuilder({ page }).exclude('iframe').analyze()).violations.map(
    (v) => `${v.id}: ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`,
  );

describe('the studio on a laptop and a phone', { timeout: 90_000 }, () => {
  for (const [width, height] of [
    [1280, 800],
    [1366, 768],
  ] as const)
    it(`shows both previews whole at ${width} px, and the preview stays in view while typing far down a form`, async () => {
      const { page, context } = await openStudio(t.browser, t.studio, NAME, { viewport: { width, height } });
      const blocks = (JSON.parse(t.studio.read(NAME)) as { blocks: { type: string }[] }).blocks;
      const faq = blocks.findIndex((b) => b.type === 'faq');
      await page.getByTestId(`outline-${faq}`).click();
      for (const id of ['preview-desktop', 'preview-phone']) {
        const box = await placed(page, id);
        expect(box.left, id).toBeGreaterThanOrEqual(0);
        expect(box.right, id).toBeLessThanOrEqual(box.width);
        expect(box.scrollWidth, 'no sideways scrolling').toBeLessThanOrEqual(box.width);
      }
      // The last answer of the questions, far down the form: the window scrolls to it; the preview comes along.
      const answers = page.locator(`[data-pointer^="/blocks/${faq}/items/"][data-pointer$="/answer"]`);
      const last = answers.last();
      await last.scrollIntoViewIfNeeded();
      await last.focus();
      await page.keyboard.type(' More.');
      await checked(page);
      expect(await page.evaluate(() => scrollY)).toBeGreaterThan(0);
      const box = await placed(page, 'preview-desktop');
      expect(box.top).toBeGreaterThanOrEqual(0);
      expect(box.bottom).toBeLessThanOrEqual(box.height);
      expect(await violations(page)).toEqual([]);
      // Each icon-only button says what it does, on hover and on keyboard focus.
      const tooltip = (name: string) =>
        page
          .getByRole('button', { name, exact: true })
          .evaluate((button) => getComputedStyle(button, '::after').content);
      await page.getByRole('button', { name: 'Duplicate block 1', exact: true }).hover();
      expect(await tooltip('Duplicate block 1')).toBe('"Duplicate block 1"');
      await page.mouse.move(0, 0);
      await page.keyboard.press('Tab'); // keyboard focus, as :focus-visible needs
      await page.getByRole('button', { name: 'Move block 2 down', exact: true }).focus();
      expect(await tooltip('Move block 2 down')).toBe('"Move block 2 down"');
      expect(await tooltip('Move block 3 down')).toBe('none');
      await context.close();
    });

  it('passes axe-core on a phone: the editor, its checks, the save dialog and a broken file', async () => {
    const { page, context } = await openStudio(t.browser, t.studio, NAME, {
      viewport: { width: 390, height: 844 },
    });
    await page.getByTestId('outline-1').click();
    await field(page, '/blocks/1/heading').fill('The colour of detox');
    await checked(page);
    await page.getByTestId('checks').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByTestId('diff').waitFor();
    expect(await violations(page)).toEqual([]);
    await page.getByRole('button', { name: 'Keep editing' }).click();
    const broken = 'pages/treatment/fentanyl-addiction.json';
    const text = t.studio.read(broken);
    t.studio.write(broken, text.slice(0, 200));
    await page.goto(`${t.studio.url}/#${broken}`);
    await page.reload();
    await page.getByTestId('broken-file').waitFor();
    expect(await violations(page)).toEqual([]);
    t.studio.write(broken, text);
    await context.close();
  });
});
