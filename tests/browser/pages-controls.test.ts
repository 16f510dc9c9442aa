// The page's controls in Debian's Chromium against the real server: the FAQ accordion, the header's desktop and phone
// menus, and where keyboard focus lands on a phone.
import { describe, expect, it } from 'vitest';
import { openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import site from '../../site/site.json' with { type: 'json' };

const t = siteUnderTest();

describe('FAQ accordion', () => {
  it('opens one answer at a time, collapses, and moves focus with arrows, Home and End', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const headers = page.locator('.faq-item summary');
    const items = page.locator('.faq-item');
    await headers.nth(0).click();
    await headers.nth(2).click();
    // An answer that closes fades out first (renderer/motion/), so what is open is read once that is done.
    await expect
      .poll(() => items.evaluateAll((all) => all.map((d) => (d as HTMLDetailsElement).open)))
      .toEqual([false, false, true, false, false, false, false, false]);
    await headers.nth(2).click();
    await expect
      .poll(() => items.evaluateAll((all) => all.filter((d) => (d as HTMLDetailsElement).open).length))
      .toBe(0);

    await headers.nth(0).focus();
    const focusedIndex = () =>
      page.evaluate(() =>
        [...document.querySelectorAll('.faq-item summary')].indexOf(document.activeElement as Element),
      );
    await page.keyboard.press('ArrowDown');
    expect(await focusedIndex()).toBe(1);
    await page.keyboard.press('End');
    expect(await focusedIndex()).toBe(7);
    await page.keyboard.press('ArrowDown');
    expect(await focusedIndex()).toBe(0);
    await page.keyboard.press('ArrowUp');
    expect(await focusedIndex()).toBe(7);
    await page.keyboard.press('Home');
    expect(await focusedIndex()).toBe(0);
    await page.keyboard.press('Enter');
    expect(await items.first().evaluate((d) => (d as HTMLDetailsElement).open)).toBe(true);
    await context.close();
  });
});

describe('header', () => {
  it('opens desktop menus on hover and on keyboard focus', async () => {
    const { page, context } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const programs = page.locator('.nav-menu').nth(0);
    await expect(programs.locator('.nav-panel').isVisible()).resolves.toBe(false);
    await programs.locator('.nav-trigger').hover();
    await expect(programs.getByRole('link', { name: /Medical Detox/ }).isVisible()).resolves.toBe(true);
    await expect(
      programs.getByRole('link', { name: 'Schedule Free Consultation' }).getAttribute('href'),
    ).resolves.toBe('/#contact');
    await page.mouse.move(0, 600);
    const treatments = page.locator('.nav-menu').nth(1);
    await treatments.locator('.nav-trigger').focus();
    await expect(treatments.getByRole('link', { name: 'Suboxone Addiction' }).isVisible()).resolves.toBe(
      true,
    );
    await expect(page.getByRole('link', { name: 'Emergency Help' }).getAttribute('href')).resolves.toBe(
      '/crisis/emergency-help',
    );
    // Its name carries the number it calls, for a screen reader; the visible label stays short.
    await expect(
      page.getByRole('link', { name: `Call 24/7, ${site.phones.primary.display}` }).getAttribute('href'),
    ).resolves.toBe(`tel:${site.phones.primary.tel}`);
    await context.close();
  });

  it('closes a desktop menu with Escape, giving focus back to its button, and once a link in it is chosen', async () => {
    const { page, context, errors } = await openPage(t.browser);
    await visit(page, `${t.site.url}/`);
    const treatments = page.locator('.nav-menu').nth(1);
    const panel = treatments.locator('.nav-panel');
    await treatments.locator('.nav-trigger').focus();
    await page.keyboard.press('Tab');
    await expect(panel.isVisible()).resolves.toBe(true);
    await page.keyboard.press('Escape');
    await expect(panel.isVisible()).resolves.toBe(false);
    await expect(
      page.evaluate(() => document.activeElement?.classList.contains('nav-trigger')),
    ).resolves.toBe(true);
    await page.keyboard.press('Enter');
    await expect(panel.isVisible()).resolves.toBe(true);

    await treatments.locator('.nav-trigger').hover();
    await treatments.getByRole('link', { name: 'Xanax Addiction' }).click();
    await page.waitForURL(`${t.site.url}/treatment/xanax-addiction`);
    await page.mouse.move(600, 700);
    await expect.poll(() => panel.isVisible()).toBe(false);
    // It opens again for the pointer.
    await treatments.locator('.nav-trigger').hover();
    await expect.poll(() => panel.isVisible()).toBe(true);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('fits on tablets and laptops: no sideways scroll, the call and emergency buttons whole on one line', async () => {
    for (const width of [768, 1024, 1199, 1280]) {
      const { page, context } = await openPage(t.browser, { viewport: { width, height: 768 } });
      await page.goto(`${t.site.url}/`);
      const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
      expect(overflow, `${width} px`).toBeLessThanOrEqual(0);
      for (const name of ['Call 24/7', 'Emergency Help']) {
        const box = (await page.locator('.nav-actions').getByRole('link', { name }).first().boundingBox())!;
        expect(box.x + box.width, `${name} at ${width} px`).toBeLessThanOrEqual(width);
        expect(box.height, `${name} at ${width} px`).toBeLessThanOrEqual(44);
      }
      await context.close();
    }
  });

  it('has a phone menu with three independent sections, a height limit, and closes when a link is chosen', async () => {
    const { page, context, errors } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/`);
    await page.getByLabel(site.labels.openMenu).click();
    const panel = page.locator('.mobile-panel');
    await expect(panel.isVisible()).resolves.toBe(true);
    const maxHeight = await panel.evaluate((el) => getComputedStyle(el).maxHeight);
    expect(maxHeight).toBe(`${844 - 120}px`);
    const sections = panel.locator('.mobile-section');
    await expect(sections.count()).resolves.toBe(3);
    await sections.nth(0).locator('summary').click();
    await sections.nth(2).locator('summary').click();
    expect(await sections.evaluateAll((all) => all.map((d) => (d as HTMLDetailsElement).open))).toEqual([
      true,
      false,
      true,
    ]);
    // The panel slides away before it closes (renderer/motion/).
    await page.keyboard.press('Escape');
    await expect.poll(() => panel.isVisible()).toBe(false);
    await expect(page.evaluate(() => document.activeElement?.getAttribute('aria-label'))).resolves.toBe(
      site.labels.openMenu,
    );
    await page.keyboard.press('Enter');
    await expect(panel.isVisible()).resolves.toBe(true);
    await panel.getByRole('link', { name: 'Medical Detox' }).click();
    await page.waitForURL(`${t.site.url}/services/medical-detox`);
    await expect.poll(() => panel.isVisible()).toBe(false);
    expect(errors).toEqual([]);
    await context.close();
  });
});
describe('keyboard focus', () => {
  it('on a phone, never lands under the sticky header or the bottom bar', async () => {
    for (const path of ['/crisis/emergency-help', '/']) {
      const { page, context } = await openPage(t.browser, PHONE);
      await visit(page, `${t.site.url}${path}`);
      const hidden: string[] = [];
      for (let step = 0; step < 60; step++) {
        await page.keyboard.press('Tab');
        // Measured once the browser has laid out what the focus scrolled to.
        const where = await page.evaluate(async () => {
          await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
          const focused = document.activeElement as HTMLElement | null;
          if (!focused || focused === document.body) return null;
          if (focused.closest('.skip-link, .site-header, .floating-widget, dialog')) return null;
          const box = focused.getBoundingClientRect();
          const header = document.querySelector('.site-header')!.getBoundingClientRect();
          const bar = document.querySelector('.widget-bar')!;
          const barTop = bar.checkVisibility({ visibilityProperty: true })
            ? bar.getBoundingClientRect().top
            : window.innerHeight;
          return box.top < header.bottom || box.bottom > barTop
            ? `${focused.tagName} "${focused.textContent?.trim().slice(0, 40)}" at ${Math.round(box.top)}-${Math.round(box.bottom)}`
            : null;
        });
        if (where) hidden.push(where);
      }
      expect(hidden, path).toEqual([]);
      await context.close();
    }
  });

  it('on a phone, keeps what Tab focuses on screen once the section before it is drawn', async () => {
    const { page, context } = await openPage(t.browser, PHONE);
    await visit(page, `${t.site.url}/`);
    // The last link before #contact, two sections above it that are not drawn yet; Tab goes to the first link in
    // #contact, near the section's top, so the end of the section before comes into view.
    await page.locator('#why-choose-us a').last().focus();
    await page.keyboard.press('Tab');
    const before = page.locator('#contact').locator('xpath=preceding-sibling::section[1]');
    await expect
      .poll(() => before.evaluate((section) => section.checkVisibility({ contentVisibilityAuto: true })))
      .toBe(true);
    const where = await page.evaluate(async () => {
      await new Promise((frame) => requestAnimationFrame(() => requestAnimationFrame(frame)));
      const focused = document.activeElement!;
      const box = focused.getBoundingClientRect();
      return { section: focused.closest('section')?.id, top: box.top, bottom: box.bottom };
    });
    expect(where.section).toBe('contact');
    expect(where.top).toBeGreaterThanOrEqual(0);
    expect(where.bottom).toBeLessThanOrEqual(PHONE.viewport!.height);
    await context.close();
  });
});
