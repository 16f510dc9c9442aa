// The gate that keeps a visitor's taps and key presses away from React until the whole page is hydrated: what reaches
// the page's listeners (an event stopped on window never reaches the document, where React listens), and when the
// page says it is hydrated.
import { describe, expect, it } from 'vitest';
import { createHydrationGate } from './hydration-gate.ts';

/** Whether an event of `type` dispatched on `window` would go on to the document (not stopped on the way). */
function passes(window: EventTarget, type: string): boolean {
  const event = new Event(type);
  window.dispatchEvent(event);
  return !event.cancelBubble;
}

/** A commit's effects have all run, and the gate's check after them. */
const afterCommit = () => new Promise<void>((resolve) => queueMicrotask(resolve));

function hydratingPage() {
  const window = new EventTarget();
  const gate = createHydrationGate();
  const opened: string[] = [];
  gate.install(window, () => opened.push('page'));
  return { window, gate, opened };
}

describe('the hydration gate', () => {
  it('holds taps, key presses and typing while the page hydrates, and lets moves and scrolls through', () => {
    const { window } = hydratingPage();
    for (const type of [
      'pointerdown',
      'click',
      'keydown',
      'textInput',
      'input',
      'selectionchange',
      'focusin',
    ])
      expect(passes(window, type), type).toBe(false);
    for (const type of ['pointermove', 'scroll', 'wheel', 'popstate'])
      expect(passes(window, type), type).toBe(true);
  });

  it('stays closed until the frame, the route and every registered slice are in, then opens once', async () => {
    const { window, gate, opened } = hydratingPage();
    const formAdopted: string[] = [];
    gate.whenOpen(() => formAdopted.push(opened.length === 0 ? 'before the page says so' : 'too late'));
    gate.sliceRegistered('header');
    gate.sliceRegistered('form');
    gate.frameHydrated();
    gate.sliceHydrated('header');
    await afterCommit();
    // The form's slice has not hydrated: a key press would still make React hydrate it inside the event.
    expect(passes(window, 'keydown')).toBe(false);
    gate.sliceHydrated('form');
    await afterCommit();
    // The route's content (the router hydrates it apart) is not in, nor are the slices it will register.
    expect(passes(window, 'keydown')).toBe(false);
    expect(opened).toEqual([]);
    gate.routeHydrated();
    await afterCommit();
    expect(passes(window, 'keydown')).toBe(true);
    expect(gate.isOpen()).toBe(true);
    expect(opened).toEqual(['page']);
    expect(formAdopted).toEqual(['before the page says so']);
    // Slices mounted later (client navigation) change nothing.
    gate.sliceRegistered('next-page');
    await afterCommit();
    expect(passes(window, 'click')).toBe(true);
    expect(opened).toEqual(['page']);
  });

  it('waits for a slice registered in the same commit as the last one it was waiting for', async () => {
    const { window, gate } = hydratingPage();
    gate.frameHydrated();
    gate.routeHydrated();
    gate.sliceRegistered('outer');
    gate.sliceHydrated('outer');
    // Registered by a part inside the outer slice, in that slice's commit, after its own mark.
    gate.sliceRegistered('inner');
    await afterCommit();
    expect(passes(window, 'keydown')).toBe(false);
    gate.sliceHydrated('inner');
    await afterCommit();
    expect(passes(window, 'keydown')).toBe(true);
  });

  it('runs a listener at once once open', async () => {
    const { gate } = hydratingPage();
    gate.frameHydrated();
    gate.routeHydrated();
    await afterCommit();
    let ran = false;
    gate.whenOpen(() => (ran = true));
    expect(ran).toBe(true);
  });
});
