// Staff editing pages in the studio, in a real browser on real files (a copy of the repository).
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { checked, field, openStudio, studioInBrowser } from './studio-helpers.ts';
import { runValidateCli } from '../../scripts/validate.ts';
import { runCli } from '../helpers/run-cli.ts';

const t = studioInBrowser();

const changedLines = (before: string, after: string) => {
  const a = before.split('\n');
  const b = after.split('\n');
  expect(b.length).toBe(a.length);
  return a.filter((line, i) => line !== b[i]);
};

describe('editing in the studio', { timeout: 60_000 }, () => {
  it('edits a hero heading: the preview follows, and the save changes exactly one line', async () => {
    const name = 'pages/services/medical-detox.json';
    const before = t.studio.read(name);
    const hero = (JSON.parse(before) as { blocks: { type: string }[] }).blocks.findIndex(
      (b) => b.type === 'hero',
    );
    const { page, context, errors } = await openStudio(t.browser, t.studio, name);
    await page.getByTestId(`outline-${hero}`).click();
    const heading = field(page, `/blocks/${hero}/heading`);
    await heading.fill('Medical detox you can trust, day and night');
    const preview = page.frameLocator('[data-testid="preview-desktop"]');
    await expect
      .poll(() => preview.locator('h1').textContent())
      .toBe('Medical detox you can trust, day and night');
    await checked(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    // The dialog names the field and both values, in words, not lines of JSON.
    const dialog = page.getByTestId('diff');
    await expect.poll(() => dialog.locator('li').count()).toBe(1);
    expect(await dialog.textContent()).toMatch(
      /^Block \d+ \(Hero .*\) › Heading: .* → Medical detox you can trust, day and night$/,
    );
    expect(await dialog.textContent()).not.toMatch(/[{"]/);
    await page.getByRole('button', { name: 'Write to file' }).click();
    await page.getByText('Saved.').waitFor();
    expect(changedLines(before, t.studio.read(name))).toEqual([
      expect.stringContaining('"heading": "Safe'.slice(0, 12)),
    ]);
    expect(t.studio.read(name)).toContain('"heading": "Medical detox you can trust, day and night",');
    // "Saved." is about the file as it was: the next edit takes it away.
    await heading.fill('Medical detox you can trust');
    await expect.poll(() => page.getByText('Saved.').count()).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('clearing a required field shows the validator’s message at it, and Save is disabled', async () => {
    const name = 'pages/treatment/xanax-addiction.json';
    const { page, context } = await openStudio(t.browser, t.studio, name);
    await page.getByTestId('outline-0').click();
    await field(page, '/blocks/0/heading').fill('');
    await checked(page);
    const broken = JSON.parse(t.studio.read(name)) as { blocks: { heading: string }[] };
    (broken.blocks[0] as { heading: string }).heading = '';
    const scratch = 'pages/treatment/scratch-copy.json';
    t.studio.write(scratch, JSON.stringify(broken, null, 2));
    const { err: printed } = await runCli(runValidateCli, [scratch], { cwd: t.studio.dir, env: process.env });
    rmSync(join(t.studio.dir, scratch));
    expect(printed).toContain('/blocks/0/heading (hero)  must not be empty');
    const wrapper = page.locator('.mantine-InputWrapper-root', { has: field(page, '/blocks/0/heading') });
    await expect
      .poll(() => wrapper.locator('.mantine-InputWrapper-error').textContent())
      .toBe('must not be empty');
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    await page.getByRole('button', { name: 'Go to first error' }).click();
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute('data-pointer')))
      .toBe('/blocks/0/heading');
    await context.close();
  });

  it('a broken link and a missing anchor get their suggestion, applied in one click', async () => {
    const name = 'pages/privacy-policy.json';
    const { page, context } = await openStudio(t.browser, t.studio, name);
    await page.getByTestId('outline-0').click();
    await page.getByRole('button', { name: 'Add secondary action' }).click();
    await field(page, '/blocks/0/secondaryAction/label').fill('Detox');
    const href = field(page, '/blocks/0/secondaryAction/href');
    await href.fill('/services/medical-detx');
    await href.press('Escape');
    await checked(page);
    // At the field, and in the list of every check under the toolbar.
    await page
      .locator('.mantine-InputWrapper-root', { has: href })
      .getByText('link "/services/medical-detx" leads nowhere')
      .waitFor();
    await page.getByTestId('checks').getByText('link "/services/medical-detx" leads nowhere').waitFor();
    await page.getByRole('button', { name: 'Use “/services/medical-detox”' }).click();
    await checked(page);
    expect(await href.inputValue()).toBe('/services/medical-detox');
    await href.fill('/#contct');
    await href.press('Escape');
    await checked(page);
    await page.getByRole('button', { name: 'Use “/#contact”' }).click();
    await checked(page);
    expect(await href.inputValue()).toBe('/#contact');
    expect(await page.getByTestId('error-count').textContent()).toBe('No errors');
    await context.close();
  });

  it('refuses to overwrite a change made on disk while the page was open, with a banner', async () => {
    const name = 'pages/treatment/meth-addiction.json';
    const { page, context } = await openStudio(t.browser, t.studio, name);
    await page.getByTestId('outline-0').click();
    await field(page, '/blocks/0/heading').fill('A heading from the studio');
    await checked(page);
    const outside = t.studio.read(name).replace('"name": "', '"name": "X');
    t.studio.write(name, outside);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Write to file' }).click();
    await page.getByTestId('conflict').waitFor();
    expect(t.studio.read(name)).toBe(outside);
    await page.getByRole('button', { name: 'Compare with my edits' }).click();
    await page
      .getByTestId('conflict')
      .getByTestId('comparison')
      .getByText(/^Name: .* → X/)
      .waitFor();
    await context.close();
  });

  it('undo and redo cover fields and structure, and a draft survives a reload', async () => {
    const name = 'pages/treatment/heroin-addiction.json';
    const before = t.studio.read(name);
    const { page, context } = await openStudio(t.browser, t.studio, name);
    const firstType = await page.getByTestId('outline-1').textContent();
    await page.getByRole('button', { name: 'Remove block 2' }).click();
    expect(await page.getByTestId('outline-1').textContent()).not.toBe(firstType);
    await page.getByRole('button', { name: 'Undo' }).click();
    expect(await page.getByTestId('outline-1').textContent()).toBe(firstType);
    await page.getByRole('button', { name: 'Redo' }).click();
    expect(await page.getByTestId('outline-1').textContent()).not.toBe(firstType);
    await page.getByTestId('outline-0').click();
    await field(page, '/blocks/0/heading').pressSequentially(' today');
    await page.getByRole('button', { name: 'Undo' }).click();
    // Typing is one step: one undo takes back the whole word.
    expect(await field(page, '/blocks/0/heading').inputValue()).not.toContain(' t');
    await page.getByRole('button', { name: 'Redo' }).click();
    expect(await field(page, '/blocks/0/heading').inputValue()).toContain(' today');
    await page.waitForTimeout(400); // the draft is stored a moment after the last change
    await page.reload();
    await page.getByText('Unsaved draft restored').waitFor();
    await page.getByTestId('outline-0').click();
    expect(await field(page, '/blocks/0/heading').inputValue()).toContain(' today');
    expect(await page.getByTestId('outline-1').textContent()).not.toBe(firstType);
    expect(t.studio.read(name)).toBe(before);
    await context.close();
  });

  it('asks before removing a block whose anchor other documents link to, and keeps it when told to', async () => {
    const { page, context } = await openStudio(t.browser, t.studio, 'pages/index.json');
    const programs = await page.getByTestId('outline-1').textContent();
    await page.getByRole('button', { name: 'Remove block 2' }).click();
    await page.getByText('This block’s anchor “programs” is linked from other documents.').waitFor();
    await page.getByRole('button', { name: 'Keep it' }).click();
    expect(await page.getByTestId('outline-1').textContent()).toBe(programs);
    await context.close();
  });
});
