// Motion from the design: the phone menu slides out, its sections and the FAQ answers open and close, the widget's
// dialogs open and close, the floating widget rises into view. All of it is framer-motion's `animate` on the real
// elements (the Web Animations API: opacity and transform only, run by the compositor, so nothing moves the layout),
// and all of it is garnish:
// - Its code is not in any page's first load. It is fetched when the visitor first reaches for something that moves
//   (a touch, pointer or focus on it, or the scroll that brings the widget), and nothing ever waits for it: an action
//   taken before it has arrived happens at once, without motion.
// - Visitors who ask for less motion (prefers-reduced-motion) never download it, and nothing animates for them.
// - The server renders every element in its final, visible state; motion only plays after an interaction, from
//   keyframes to that same state, and leaves no style behind.
// Why not LazyMotion with `m` components: docs/decisions/2026-11-25-motion-on-demand.md.
import type { animate as Animate } from 'framer-motion/dom/mini';

type Keyframes = Parameters<typeof Animate>[1];

/** An element's way in and way out: keyframes that end (way in) or start (way out) in its natural state. */
export interface Look {
  enter: Keyframes;
  exit: Keyframes;
  /** Seconds. */
  enterDuration: number;
  exitDuration: number;
}

/** Cubic Bézier curves: decelerating into place, accelerating away. */
type Bezier = [number, number, number, number];
const EASE_OUT: Bezier = [0.2, 0, 0, 1];
const EASE_IN: Bezier = [0.4, 0, 1, 1];

export const LOOKS = {
  /** The phone menu's panel, from the right edge. */
  panel: {
    enter: { transform: ['translateX(100%)', 'none'] },
    exit: { transform: ['none', 'translateX(100%)'] },
    enterDuration: 0.24,
    exitDuration: 0.18,
  },
  /** What a disclosure (a menu section, an FAQ answer) shows: fades in as it drops into place. */
  disclosure: {
    enter: { opacity: [0, 1], transform: ['translateY(-8px)', 'none'] },
    exit: { opacity: [1, 0], transform: ['none', 'translateY(-8px)'] },
    enterDuration: 0.2,
    exitDuration: 0.14,
  },
  /** A modal dialog: rises and grows a little as it fades in. */
  dialog: {
    enter: { opacity: [0, 1], transform: ['translateY(16px) scale(0.97)', 'none'] },
    exit: { opacity: [1, 0], transform: ['none', 'translateY(16px) scale(0.97)'] },
    enterDuration: 0.22,
    exitDuration: 0.15,
  },
  /** The floating widget, rising from the bottom edge. */
  widget: {
    enter: { opacity: [0, 1], transform: ['translateY(16px)', 'none'] },
    exit: { opacity: [1, 0], transform: ['none', 'translateY(16px)'] },
    enterDuration: 0.22,
    exitDuration: 0.15,
  },
} as const satisfies Record<string, Look>;

let animate: typeof Animate | undefined;
let loading: Promise<void> | undefined;

/** The visitor's own setting, read at each animation so that a change applies at once. */
export const prefersReducedMotion = (): boolean =>
  typeof window !== 'undefined' && window.matchMedia('(prefers-reduced-motion: reduce)').matches;

/**
 * Fetches the motion code ahead of its first use (the visitor is reaching for something that moves). Once it is here,
 * `html[data-motion]` says so: CSS motion that stands in before it (the panel's slide-in, the widget's fade) stops.
 */
export function prefetchMotion(): void {
  if (loading || prefersReducedMotion()) return;
  loading = import('framer-motion/dom/mini').then(
    (motion) => {
      animate = motion.animate;
      document.documentElement.dataset.motion = 'ready';
    },
    // A download that failed (a phone losing its signal) is tried again at the next reach.
    () => {
      loading = undefined;
    },
  );
}

/** Whether an animation would play now: the code is here and the visitor has not asked for less motion. */
export const motionReady = (): boolean => animate !== undefined && !prefersReducedMotion();

/**
 * Plays `keyframes` on `elements`; resolves when they have finished, at once when motion is not ready. The animated
 * properties are then handed back to the style sheet, so an element is never left hidden by an animation's end (a
 * way out ends hidden: the caller hides the element in the same moment, before the next paint).
 */
function play(elements: readonly Element[], keyframes: Keyframes, duration: number, ease: Bezier) {
  if (!animate || prefersReducedMotion() || elements.length === 0) return Promise.resolve();
  const controls = animate([...elements], keyframes, { duration, ease });
  return new Promise<void>((resolve) =>
    controls.then(() => {
      for (const element of elements) {
        const { style } = element as HTMLElement;
        for (const property of Object.keys(keyframes)) style.removeProperty(property);
        if (style.length === 0) element.removeAttribute('style');
      }
      resolve();
    }),
  );
}

export const enter = (elements: readonly Element[], look: Look) =>
  play(elements, look.enter, look.enterDuration, EASE_OUT);
export const exit = (elements: readonly Element[], look: Look) =>
  play(elements, look.exit, look.exitDuration, EASE_IN);
