// Previews of the site-wide documents: the site document's header and footer drawn by the renderer as they are
// typed, and each redirect with where it leads, or the build's own message where it leads nowhere.
import { describe, expect, it } from 'vitest';
import { checked, field, openStudio, studioInBrowser } from './studio-helpers.ts';

const t = studioInBrowser();

describe('previews of the site document and the redirects', { timeout: 60_000 }, () => {
  it('shows the draft header and footer on the home page, at phone and desktop width', async () => {
    const { page, context, errors } = await openStudio(t.browser, t.studio, 'site/site.json');
    await field(page, '/header/programs/label').fill('Our programs');
    await field(page, '/footer/about').fill('Care around the clock, by a team that answers at {phone}.');
    const desktop = page.frameLocator('[data-testid="preview-desktop"]');
    await expect.poll(() => desktop.locator('header .nav-desktop').textContent()).toContain('Our programs');
    await expect
      .poll(() => desktop.locator('footer').textContent())
      .toContain('Care around the clock, by a team that answers at');
    // The home page's own blocks, drawn beneath them; the phone preview gets the same draft.
    await desktop.locator('main h1').waitFor();
    await expect
      .poll(() => page.frameLocator('[data-testid="preview-phone"]').locator('footer').textContent())
      .toContain('Care around the clock');
    expect(errors).toEqual([]);
    await context.close();
  });

  it('shows where each redirect leads, and the build’s message for a target that is no page', async () => {
    const { page, context } = await openStudio(t.browser, t.studio, 'site/redirects.json');
    const first = page.getByTestId('redirect-0');
    const target = (JSON.parse(t.studio.read('site/redirects.json')) as { redirects: { to: string }[] })
      .redirects[0]?.to;
    expect(await first.textContent()).toContain(`→ ${target}`);
    expect(await first.getByTestId('redirect-error').count()).toBe(0);
    const to = field(page, '/redirects/0/to');
    await to.fill('/treatment/nothing-here');
    await to.press('Escape');
    await checked(page);
    await expect
      .poll(() => first.getByTestId('redirect-error').textContent())
      .toBe('"/treatment/nothing-here" is not a page under pages/');
    expect(await first.textContent()).toContain('No page has this address.');
    await context.close();
  });
});
