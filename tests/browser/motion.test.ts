// Motion (renderer/motion/): what moves, what never moves the layout, what a visitor who asks for less motion gets,
// and what a visitor without JavaScript gets, in Debian's Chromium against the built site.
import { describe, expect, it } from 'vitest';
import type { BrowserContextOptions, Locator, Page } from 'playwright-core';
import { openPage, PHONE, visit } from '../helpers/browser.ts';
import { siteUnderTest } from '../helpers/site-under-test.ts';
import site from '../../site/site.json' with { type: 'json' };

const t = siteUnderTest();

/** The motion code's chunk: framer-motion's animate. */
const MOTION_CHUNK = /\/assets\/dom-mini-[^/]*\.js$/;

type Recorded = {
  /**
   * Layout shifts that count towards Cumulative Layout Shift: none within 500 ms of a tap or key press. (Opening a
   * <details> makes room for what it shows, so the content after it moves, by the visitor's own hand: the browser
   * reports that with `hadRecentInput`, and CLS leaves it out.)
   */
  shifts: { value: number; moved: string[] }[];
  /** Each element.animate() call (framer-motion's; the style sheet's own animations make none): when, on what. */
  animations: { at: number; classes: string[]; properties: string[]; duration: number }[];
  /** Each <details> toggled and <dialog> closed: when, and which way. */
  changes: { at: number; classes: string[]; state: string }[];
};

/** Records, from the first byte on, every layout shift (with what moved), animation started by script, and toggle. */
async function record(page: Page) {
  await page.addInitScript(() => {
    const recorded: Recorded = { shifts: [], animations: [], changes: [] };
    (window as unknown as { recorded: Recorded }).recorded = recorded;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries() as (PerformanceEntry & {
        value: number;
        hadRecentInput: boolean;
        sources?: { node?: Node | null }[];
      })[])
        if (!entry.hadRecentInput)
          recorded.shifts.push({
            value: entry.value,
            moved: (entry.sources ?? []).map((source) =>
              source.node instanceof Element ? source.node.outerHTML.slice(0, 80) : String(source.node),
            ),
          });
    }).observe({ type: 'layout-shift', buffered: true });
    const classes = (element: Element) => [...element.classList];
    const animate = Element.prototype.animate;
    Element.prototype.animate = function (this: Element, keyframes, options) {
      recorded.animations.push({
        at: performance.now(),
        classes: classes(this),
        properties: Object.keys(keyframes ?? {})
          .filter((key) => !['offset', 'easing', 'composite'].includes(key))
          .sort(),
        duration: typeof options === 'number' ? options : Number(options?.duration ?? 0),
      });
      return animate.call(this, keyframes, options);
    };
    const change = (event: Event) => {
      const target = event.target;
      if (!(target instanceof Element)) return;
      const state = event instanceof ToggleEvent ? event.newState : event.type;
      recorded.changes.push({ at: performance.now(), classes: classes(target), state });
    };
    document.addEventListener('toggle', change, true);
    document.addEventListener('close', change, true);
  });
  return () => page.evaluate(() => (window as unknown as { recorded: Recorded }).recorded);
}

async function open(options: BrowserContextOptions, path = '/') {
  const opened = await openPage(t.browser, options);
  const motionRequests: string[] = [];
  opened.page.on('request', (request) => {
    if (MOTION_CHUNK.test(new URL(request.url()).pathname)) motionRequests.push(request.url());
  });
  const recorded = await record(opened.page);
  await visit(opened.page, `${t.site.url}${path}`);
  return { ...opened, motionRequests, recorded };
}

/** The animations framer-motion started on elements of `className`: their properties, in order. */
const movedOn = (recorded: Recorded, className: string) =>
  recorded.animations.filter((a) => a.classes.includes(className)).map((a) => a.properties.join(' '));

/**
 * How long an element of `className` stayed as it was after its last way out began: the time from the last
 * animation started on `animatedClass` to the last change of state (closed) of `className`.
 */
function heldFor(recorded: Recorded, animatedClass: string, className: string): number {
  const started = recorded.animations.filter((a) => a.classes.includes(animatedClass)).at(-1);
  const closed = recorded.changes.filter((c) => c.classes.includes(className) && c.state !== 'open').at(-1);
  return started && closed ? closed.at - started.at : Number.NaN;
}

/** Reaches for something that moves (focus on it) and waits for the motion code. */
async function reach(page: Page, target: Locator) {
  await target.focus();
  await page.locator('html[data-motion]').waitFor({ state: 'attached' });
}

/** What an animation could have left in the element's own style: its opacity and transform. */
const leftBehind = (target: Locator) =>
  target.evaluate((element) => {
    const { opacity, transform } = (element as HTMLElement).style;
    return opacity + transform;
  });
const isOpen = (details: Locator) => details.evaluate((element) => (element as HTMLDetailsElement).open);
const dialogOpen = (dialog: Locator) => dialog.evaluate((element) => (element as HTMLDialogElement).open);
const scrollTo = (page: Page, y: number) => page.evaluate((top) => window.scrollTo(0, top), y);

/** A way out lasts this long at least (renderer/motion/motion.ts: the shortest is 0.14 s), less a timer's rounding. */
const SHORTEST_EXIT_MS = 130;

describe('motion', () => {
  it('is not in the first load: the code comes when the visitor reaches for something that moves', async () => {
    const { page, context, motionRequests, errors } = await open(PHONE);
    await page.waitForTimeout(1000);
    expect(motionRequests).toEqual([]);
    await reach(page, page.locator('.mobile-menu > summary'));
    expect(motionRequests).toHaveLength(1);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('slides the phone menu out and back, fades its sections in and out, and shifts nothing', async () => {
    const { page, context, recorded, errors } = await open(PHONE);
    const toggle = page.locator('.mobile-menu > summary');
    const menu = page.locator('details.mobile-menu');
    const panel = page.locator('.mobile-panel');
    await reach(page, toggle);

    await toggle.tap();
    await expect(isOpen(menu)).resolves.toBe(true);
    await expect.poll(async () => movedOn(await recorded(), 'mobile-panel')).toEqual(['transform']);
    const section = panel.locator('.mobile-section').first();
    await section.locator('summary').tap();
    await expect(isOpen(section)).resolves.toBe(true);
    await expect
      .poll(async () => movedOn(await recorded(), 'mobile-section-links'))
      .toEqual(['opacity', 'transform']);
    await section.locator('summary').tap();
    await expect.poll(() => isOpen(section)).toBe(false);
    // The links faded out before the section closed.
    expect(heldFor(await recorded(), 'mobile-section-links', 'mobile-section')).toBeGreaterThan(
      SHORTEST_EXIT_MS,
    );

    await toggle.tap();
    await expect.poll(() => isOpen(menu)).toBe(false);
    expect(movedOn(await recorded(), 'mobile-panel')).toEqual(['transform', 'transform']);
    expect(heldFor(await recorded(), 'mobile-panel', 'mobile-menu')).toBeGreaterThan(SHORTEST_EXIT_MS);
    // Nothing is left behind: the panel is in its natural place, by the style sheet alone.
    await expect(leftBehind(panel)).resolves.toBe('');
    expect((await recorded()).shifts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('opens and closes an FAQ answer with motion, after hydration, and shifts nothing', async () => {
    const { page, context, recorded, errors } = await open(PHONE);
    const item = page.locator('.faq-item').first();
    const answer = item.locator('.faq-answer');
    await reach(page, item.locator('summary'));
    await item.locator('summary').tap();
    await expect(isOpen(item)).resolves.toBe(true);
    await expect.poll(async () => movedOn(await recorded(), 'faq-answer')).toEqual(['opacity', 'transform']);
    await expect.poll(() => answer.evaluate((element) => getComputedStyle(element).opacity)).toBe('1');
    await item.locator('summary').tap();
    await expect.poll(() => isOpen(item)).toBe(false);
    expect(heldFor(await recorded(), 'faq-answer', 'faq-item')).toBeGreaterThan(SHORTEST_EXIT_MS);
    await expect(leftBehind(answer)).resolves.toBe('');
    expect((await recorded()).shifts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });

  it('moves the widget into view and its dialogs in and out, and shifts nothing', async () => {
    const { page, context, recorded, errors } = await open(PHONE);
    const widget = page.locator('.floating-widget');
    // The first scroll fetches the code; the widget's next appearance moves. (Whether that first appearance moves too
    // depends on which comes first on a busy machine, the code or React's render of the scroll, so it is not counted.)
    await scrollTo(page, 800);
    await page.locator('html[data-motion]').waitFor({ state: 'attached' });
    await scrollTo(page, 0);
    await expect.poll(() => widget.getAttribute('data-visible')).toBe('false');
    const before = movedOn(await recorded(), 'floating-widget').length;
    await scrollTo(page, 800);
    await expect.poll(() => widget.getAttribute('data-visible')).toBe('true');
    await expect
      .poll(async () => movedOn(await recorded(), 'floating-widget').slice(before))
      .toEqual(['opacity', 'transform']);

    const dialog = page.locator('#widget-insurance-dialog');
    await page.locator('.widget-bar').getByRole('button', { name: site.widget.verifyLabel }).tap();
    await expect(dialogOpen(dialog)).resolves.toBe(true);
    await expect.poll(async () => movedOn(await recorded(), 'form-dialog')).toEqual(['opacity', 'transform']);
    await dialog.getByRole('button', { name: site.widget.closeLabel }).tap();
    await expect.poll(() => dialogOpen(dialog)).toBe(false);
    expect(movedOn(await recorded(), 'form-dialog')).toHaveLength(4);
    expect(heldFor(await recorded(), 'form-dialog', 'form-dialog')).toBeGreaterThan(SHORTEST_EXIT_MS);
    await expect(leftBehind(dialog)).resolves.toBe('');
    expect((await recorded()).shifts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('with reduced motion', () => {
  it('animates nothing: every change is final at once, and the motion code is never fetched', async () => {
    const { page, context, motionRequests, recorded, errors } = await open({
      ...PHONE,
      reducedMotion: 'reduce',
    });
    const running = () => page.evaluate(() => document.getAnimations().length);
    const toggle = page.locator('.mobile-menu > summary');
    const menu = page.locator('details.mobile-menu');
    const panel = page.locator('.mobile-panel');
    await toggle.focus();
    await toggle.tap();
    await expect(isOpen(menu)).resolves.toBe(true);
    expect(await running()).toBe(0);
    await expect(panel.evaluate((element) => getComputedStyle(element).transform)).resolves.toBe('none');
    const section = panel.locator('.mobile-section').first();
    await section.locator('summary').tap();
    expect(await running()).toBe(0);
    await section.locator('summary').tap();
    await expect(isOpen(section)).resolves.toBe(false);
    await toggle.tap();
    await expect(isOpen(menu)).resolves.toBe(false);

    const item = page.locator('.faq-item').first();
    await item.locator('summary').tap();
    expect(await running()).toBe(0);
    await expect(item.locator('.faq-answer').evaluate((e) => getComputedStyle(e).opacity)).resolves.toBe('1');
    await item.locator('summary').tap();
    await expect(isOpen(item)).resolves.toBe(false);

    await scrollTo(page, 800);
    await expect.poll(() => page.locator('.floating-widget').getAttribute('data-visible')).toBe('true');
    expect(await running()).toBe(0);
    const dialog = page.locator('#widget-insurance-dialog');
    await page.locator('.widget-bar').getByRole('button', { name: site.widget.verifyLabel }).tap();
    await expect(dialogOpen(dialog)).resolves.toBe(true);
    expect(await running()).toBe(0);
    await dialog.getByRole('button', { name: site.widget.closeLabel }).tap();
    await expect(dialogOpen(dialog)).resolves.toBe(false);

    expect((await recorded()).animations).toEqual([]);
    expect(motionRequests).toEqual([]);
    expect(await page.locator('html[data-motion]').count()).toBe(0);
    expect((await recorded()).shifts).toEqual([]);
    expect(errors).toEqual([]);
    await context.close();
  });
});

describe('without JavaScript', () => {
  it('shows everything that moves, visible and usable: nothing is hidden by a style of motion', async () => {
    const { page, context } = await openPage(t.browser, { ...PHONE, javaScriptEnabled: false });
    await page.goto(`${t.site.url}/`);
    // No element is sent hidden or displaced by an inline style.
    await expect(page.locator('[style*="opacity"], [style*="transform"]').count()).resolves.toBe(0);
    const visible = (target: Locator) =>
      target.evaluate((element) =>
        element.checkVisibility({ opacityProperty: true, visibilityProperty: true }),
      );

    await page.locator('.mobile-menu > summary').tap();
    const panel = page.locator('.mobile-panel');
    await expect.poll(() => visible(panel.getByRole('link', { name: site.header.contact.label }))).toBe(true);
    const section = panel.locator('.mobile-section').first();
    await section.locator('summary').tap();
    await expect(visible(section.getByRole('link').first())).resolves.toBe(true);
    await page.locator('.mobile-menu > summary').tap();
    await expect(isOpen(page.locator('details.mobile-menu'))).resolves.toBe(false);

    const item = page.locator('.faq-item').first();
    await item.locator('summary').tap();
    await expect(visible(item.locator('.faq-answer'))).resolves.toBe(true);
    await item.locator('summary').tap();
    await expect(isOpen(item)).resolves.toBe(false);

    // The widget's dialogs open as popovers (the posting itself: tests/browser/widget.test.ts).
    await page.mouse.wheel(0, 800);
    const opener = page.locator('.widget-bar').getByRole('button', { name: site.widget.verifyLabel });
    await expect.poll(() => visible(opener)).toBe(true);
    await opener.tap();
    const dialog = page.locator('#widget-insurance-dialog');
    await expect.poll(() => visible(dialog.getByLabel('First Name'))).toBe(true);
    await context.close();
  });
});
