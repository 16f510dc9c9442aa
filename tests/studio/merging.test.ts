// Two people on one document: a colleague's change on disk is noticed, merged field by field with mine, and only a
// field both changed is asked about; a malformed file is shown as broken while everything else keeps working.
import { describe, expect, it } from 'vitest';
import { checked, field, openStudio, studioInBrowser } from './studio-helpers.ts';

const t = studioInBrowser();

type Page = { title: string; blocks: { heading?: string; [key: string]: unknown }[] };
const read = (name: string) => JSON.parse(t.studio.read(name)) as Page;
/** A colleague's edit, written as a text editor would (the file's own formatting kept). */
const editOnDisk = (name: string, from: string, to: string) => {
  const text = t.studio.read(name);
  expect(text).toContain(from);
  t.studio.write(name, text.replace(from, to));
};

describe('two people editing one document', { timeout: 90_000 }, () => {
  it('keeps a colleague’s edit to another block when mine goes on top of the new version', async () => {
    const name = 'pages/services/medical-detox.json';
    const before = read(name);
    const mine = before.blocks.findIndex((b) => b.type === 'hero');
    const other = before.blocks.findIndex((b, i) => i !== mine && typeof b.heading === 'string');
    const theirHeading = before.blocks[other]!.heading!;
    const { page, context, errors } = await openStudio(t.browser, t.studio, name);
    await page.getByTestId(`outline-${mine}`).click();
    await field(page, `/blocks/${mine}/heading`).fill('Medical detox, day and night');
    await checked(page);
    editOnDisk(name, `"heading": ${JSON.stringify(theirHeading)}`, '"heading": "A colleague’s heading"');
    // The open document notices the change on disk by itself, before any save.
    await page
      .getByTestId('conflict')
      .getByText(/changed on disk at \d\d:\d\d:\d\d since you opened it/)
      .waitFor();
    await page.getByRole('button', { name: 'Keep my edits on top of the new version' }).click();
    await page.getByText(/^Merged: 1 field changed on disk/).waitFor();
    await checked(page);
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Write to file' }).click();
    await page.getByText('Saved.').waitFor();
    const after = read(name);
    expect(after.blocks[mine]!.heading).toBe('Medical detox, day and night');
    expect(after.blocks[other]!.heading).toBe('A colleague’s heading');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('asks only about the field both changed, showing both values, and keeps the one chosen', async () => {
    const name = 'pages/treatment/meth-addiction.json';
    const before = read(name);
    const { page, context } = await openStudio(t.browser, t.studio, name);
    await page.getByTestId('outline-0').click();
    await field(page, '/blocks/0/heading').fill('My heading');
    await checked(page);
    editOnDisk(name, `"heading": ${JSON.stringify(before.blocks[0]!.heading)}`, '"heading": "Their heading"');
    editOnDisk(name, `"title": ${JSON.stringify(before.title)}`, '"title": "Their page title, long enough"');
    await page.getByRole('button', { name: 'Save', exact: true }).click();
    await page.getByRole('button', { name: 'Write to file' }).click();
    await page.getByText('Your save was refused so the other change is not lost.').waitFor();
    await page.getByRole('button', { name: 'Compare with my edits' }).click();
    const comparison = page.getByTestId('comparison');
    await comparison.getByText(/Title: .* → Their page title, long enough/).waitFor();
    expect(await comparison.textContent()).not.toContain('{');
    await page.getByRole('button', { name: 'Keep my edits on top of the new version' }).click();
    const conflicts = page.getByTestId('merge-conflicts');
    await conflicts.getByText(/^Block 1 \(Hero .*\) › Heading$/).waitFor();
    expect(await conflicts.getByRole('radio').count()).toBe(2);
    await conflicts.getByLabel('Yours: My heading').waitFor();
    await conflicts.getByLabel('On disk: Their heading').check();
    await page.getByRole('button', { name: 'Use these values' }).click();
    await page.getByText(/^Merged:/).waitFor();
    // Their value chosen at the only field I changed: the draft is what is on disk, nothing left to save.
    expect(await field(page, '/blocks/0/heading').inputValue()).toBe('Their heading');
    await checked(page);
    expect(await page.getByRole('button', { name: 'Save', exact: true }).isDisabled()).toBe(true);
    const after = read(name);
    expect(after.blocks[0]!.heading).toBe('Their heading');
    expect(after.title).toBe('Their page title, long enough');
    await context.close();
  });

  it('reloads an unedited document that changed on disk, and says so', async () => {
    const name = 'pages/treatment/heroin-addiction.json';
    const before = read(name);
    const { page, context } = await openStudio(t.browser, t.studio, name);
    editOnDisk(
      name,
      `"heading": ${JSON.stringify(before.blocks[0]!.heading)}`,
      '"heading": "Changed elsewhere"',
    );
    await page.getByText(/^This file was reloaded: it was changed on disk at/).waitFor();
    await page.getByTestId('outline-0').click();
    expect(await field(page, '/blocks/0/heading').inputValue()).toBe('Changed elsewhere');
    await context.close();
  });

  it('shows a malformed file as broken at the parser’s line and column; the rest works, after a reload too', async () => {
    const name = 'pages/treatment/xanax-addiction.json';
    const text = t.studio.read(name);
    const lines = text.split('\n');
    // What `git pull` leaves when both sides changed a line.
    t.studio.write(name, [...lines.slice(0, 3), '<<<<<<< HEAD', ...lines.slice(3)].join('\n'));
    const { page, context, errors } = await openStudio(t.browser, t.studio, 'pages/index.json');
    const entry = page.locator(`[data-file="${name}"]`);
    await expect.poll(() => entry.textContent()).toMatch(/broken at line 4, column 1/);
    await entry.click();
    await page
      .getByTestId('broken-file')
      .getByText(/^Line 4, column 1:/)
      .waitFor();
    await page.reload();
    await page.getByTestId('broken-file').waitFor();
    await page.locator('[data-file="pages/index.json"]').click();
    await page.getByRole('button', { name: /Save/ }).waitFor();
    await page.locator(`[data-file="${name}"]`).click();
    t.studio.write(name, text);
    // Fixed on disk: it opens by itself.
    await page.getByRole('button', { name: /Save/ }).waitFor({ timeout: 15_000 });
    expect(errors).toEqual([]);
    await context.close();
  });

  it('keeps working with a malformed site document: the last version read renders, and the list says it is broken', async () => {
    const name = 'site/site.json';
    const text = t.studio.read(name);
    t.studio.write(name, text.replace('{', '{\n<<<<<<< HEAD'));
    try {
      const { page, context, errors } = await openStudio(t.browser, t.studio, 'pages/index.json');
      await page.getByTestId('outline-0').click();
      await page.frameLocator('[data-testid="preview-desktop"]').locator('h1').waitFor();
      await expect
        .poll(() => page.locator(`[data-file="${name}"]`).textContent())
        .toMatch(/broken at line 2, column 1/);
      expect(errors).toEqual([]);
      await context.close();
    } finally {
      t.studio.write(name, text);
    }
  });
});
