// A <details> element that opens and closes with motion (the phone menu, its sections, the FAQ answers). It stays a
// native <details>: without JavaScript, before hydration, before the motion code is here or for a visitor who asks
// for less motion, the browser opens and closes it at once, as ever. With motion, opening shows the content at once
// and moves it into place; closing moves it out first, then closes.
import type { MouseEvent } from 'react';
import { enter, exit, motionReady, type Look } from './motion.ts';

/** The closing under way for each element: a click that comes during it keeps the element open instead. */
const closing = new WeakMap<HTMLDetailsElement, symbol>();

/** What a <details> shows when open: every child but its summary. */
const contentOf = (details: HTMLDetailsElement): Element[] =>
  [...details.children].filter((child) => child.tagName !== 'SUMMARY');

/** Opens `details`, moving its content in. */
export function openDetails(details: HTMLDetailsElement, look: Look): void {
  const reopening = closing.delete(details);
  if (details.open && !reopening) return;
  details.open = true;
  void enter(contentOf(details), look);
}

/** Closes `details` once its content has moved out (at once without motion). */
export function closeDetails(details: HTMLDetailsElement, look: Look): void {
  if (!details.open || closing.has(details)) return;
  if (!motionReady()) {
    details.open = false;
    return;
  }
  const token = Symbol('closing');
  closing.set(details, token);
  void exit(contentOf(details), look).then(() => {
    if (closing.get(details) !== token) return;
    closing.delete(details);
    details.open = false;
  });
}

/**
 * The click on a <details>' summary (a tap, Enter or Space): with motion, opens or closes it as above instead of the
 * browser's instant toggle; without, leaves it to the browser.
 */
export function toggleFromSummary(event: MouseEvent<HTMLElement>, look: Look): void {
  const details = event.currentTarget.parentElement;
  if (!(details instanceof HTMLDetailsElement) || !motionReady()) return;
  event.preventDefault();
  if (details.open && !closing.has(details)) closeDetails(details, look);
  else openDetails(details, look);
}
