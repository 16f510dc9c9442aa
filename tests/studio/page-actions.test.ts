// A page's own actions in the studio: put it in a menu, and delete it with a redirect from its address, each
// written to the site's documents as npm run validate accepts them.
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { openStudio, studioInBrowser } from './studio-helpers.ts';
import { runValidateCli } from '../../scripts/validate.ts';
import { runCli } from '../helpers/run-cli.ts';

const t = studioInBrowser();

type Site = { footer: { groups: { title: string; links: { label: string; href: string }[] }[] } };
type Redirects = { redirects: { from: string[]; to: string }[] };

describe('page actions in the studio', { timeout: 90_000 }, () => {
  it('adds a page to a footer menu under the name staff give it', async () => {
    const name = 'pages/treatment/codeine-addiction.json';
    const { page, context, errors } = await openStudio(t.browser, t.studio, name);
    await page.getByRole('button', { name: 'Add to a menu…' }).click();
    await page.getByRole('dialog').getByLabel('Menu', { exact: true }).first().click();
    await page.getByRole('option', { name: 'Footer: Treatments' }).click();
    await page.getByLabel('Link text', { exact: true }).fill('Codeine');
    await page.getByRole('button', { name: 'Add to the menu' }).click();
    await page.getByText('Added to Footer: Treatments as “Codeine”.').waitFor();
    // The preview shows the new link at once, in the footer it was added to.
    await page
      .frameLocator('[data-testid="preview-desktop"]')
      .locator('footer')
      .getByRole('link', { name: 'Codeine', exact: true })
      .waitFor();
    const site = JSON.parse(t.studio.read('site/site.json')) as Site;
    const treatments = site.footer.groups.find((g) => g.title === 'Treatments')!;
    expect(treatments.links.at(-1)).toEqual({ label: 'Codeine', href: '/treatment/codeine-addiction' });
    const { code } = await runCli(runValidateCli, ['site/site.json'], {
      cwd: t.studio.dir,
      env: process.env,
    });
    expect(code).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('deletes a page, naming the links to it, and redirects its address to the page chosen', async () => {
    const name = 'pages/treatment/ambien-addiction.json';
    const { page, context, errors } = await openStudio(t.browser, t.studio, name);
    await page.getByRole('button', { name: 'Delete this page…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Delete /treatment/ambien-addiction?' });
    await dialog
      .getByText(
        /links? in other documents point at \/treatment\/ambien-addiction; the redirect keeps them working/,
      )
      .waitFor();
    await dialog
      .getByLabel('Send visitors to', { exact: true })
      .first()
      .fill('/treatment/benzodiazepine-addiction');
    await page.getByRole('option', { name: '/treatment/benzodiazepine-addiction' }).click();
    await dialog.getByRole('button', { name: 'Delete the page' }).click();
    await page
      .getByText(
        'Deleted /treatment/ambien-addiction; its address now leads to /treatment/benzodiazepine-addiction.',
      )
      .waitFor();
    expect(existsSync(join(t.studio.dir, name))).toBe(false);
    const { redirects } = JSON.parse(t.studio.read('site/redirects.json')) as Redirects;
    expect(redirects.at(-1)).toEqual({
      from: ['/treatment/ambien-addiction'],
      to: '/treatment/benzodiazepine-addiction',
    });
    await expect.poll(() => page.locator(`[data-file="${name}"]`).count()).toBe(0);
    const { code } = await runCli(runValidateCli, ['site/redirects.json'], {
      cwd: t.studio.dir,
      env: process.env,
    });
    expect(code).toBe(0);
    expect(errors).toEqual([]);
    await context.close();
  });
});
