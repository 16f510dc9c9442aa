// Until the whole page is hydrated, the visitor's taps and key presses are the browser's alone. React makes a discrete
// event (a tap, a key press) that reaches a part it has not hydrated yet hydrate that part at once, inside the event:
// on a slow phone the frame and the form a key lands in took 400-800 ms, all of it the key press's delay. The page
// needs none of that to answer: it works without script (links, forms that post, menus and dialogs on <details> and
// popover), and a field keeps what is typed into it. So those events are stopped on window, before React's own
// listeners on the document see them, while the default action still happens; React hydrates in small steps
// between them, and takes the events over once every slice is in.
import { useLayoutEffect } from 'react';

/**
 * The events React answers at once (its discrete priority: react-dom's getEventPriority) that a visitor's tap, click,
 * key press, typing, selection or a native menu and dialog fire on the page. Continuous events (moves, scrolls) never
 * force hydration and pass, and so do the window's own (popstate, hashchange), which the router listens to.
 */
export const HELD_EVENTS = [
  'pointerdown',
  'pointerup',
  'pointercancel',
  'mousedown',
  'mouseup',
  'click',
  'auxclick',
  'dblclick',
  'contextmenu',
  'touchstart',
  'touchend',
  'touchcancel',
  'keydown',
  'keypress',
  'keyup',
  'beforeinput',
  'textInput',
  'input',
  'change',
  'invalid',
  'compositionstart',
  'compositionupdate',
  'compositionend',
  'select',
  'selectstart',
  'selectionchange',
  'focusin',
  'focusout',
  'submit',
  'reset',
  'beforetoggle',
  'toggle',
  'cancel',
  'close',
  'cut',
  'copy',
  'paste',
  'dragstart',
  'dragend',
  'drop',
] as const;

type Listener = () => void;

/**
 * The page's hydration as the gate follows it: the frame (the document around the route), the route's own content
 * (the router hydrates it apart, in a Suspense boundary of its own), then each slice (renderer/shell/HydrationSlice.tsx).
 * A slice is registered when the part around it commits and is done when its own content commits.
 */
export function createHydrationGate() {
  const registered = new Set<string>();
  const done = new Set<string>();
  let frame = false;
  let route = false;
  let open = false;
  let checkQueued = false;
  const listeners: Listener[] = [];
  const hold = (event: Event) => {
    if (!open) event.stopPropagation();
  };
  let target: EventTarget | undefined;
  let opened: Listener | undefined;

  const check = () => {
    checkQueued = false;
    if (open || !frame || !route || [...registered].some((id) => !done.has(id))) return;
    open = true;
    for (const type of HELD_EVENTS) target?.removeEventListener(type, hold, { capture: true });
    for (const listener of listeners.splice(0)) listener();
    opened?.();
  };
  // After the commit that reported it: a slice's content commits before the frame around it registers a slice
  // nested in it, so the check waits until every effect of the commit has run.
  const queueCheck = () => {
    if (checkQueued || open) return;
    checkQueued = true;
    queueMicrotask(check);
  };

  return {
    /**
     * Holds the events on `on` (window: its capture listeners run before React's listeners on the document) until the
     * page is hydrated, then calls `onOpen`, after every listener of whenOpen.
     */
    install(on: EventTarget, onOpen?: Listener) {
      target = on;
      opened = onOpen;
      for (const type of HELD_EVENTS) on.addEventListener(type, hold, { capture: true });
    },
    sliceRegistered(id: string) {
      registered.add(id);
    },
    sliceHydrated(id: string) {
      done.add(id);
      queueCheck();
    },
    frameHydrated() {
      frame = true;
      queueCheck();
    },
    /** The route's component (a page, the not-found or the error screen) has committed. */
    routeHydrated() {
      route = true;
      queueCheck();
    },
    /** Whether React now gets the page's events: the whole page is hydrated. */
    isOpen: () => open,
    /** Runs `listener` once the whole page is hydrated (at once if it is). */
    whenOpen(listener: Listener) {
      if (open) listener();
      else listeners.push(listener);
    },
  };
}

/** The page's one gate; the client entry installs it before it hydrates. */
export const hydrationGate = createHydrationGate();

/** Tells the gate that the route's component has hydrated: every route component calls it. */
export function useRouteHydrated() {
  useLayoutEffect(() => hydrationGate.routeHydrated(), []);
}
