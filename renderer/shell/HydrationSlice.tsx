import { isValidElement, memo, Suspense, useId, useLayoutEffect, type ReactNode } from 'react';
import { hydrationGate } from './hydration-gate.ts';

/** Commits with the slice's own content: the slice is hydrated. */
function Hydrated({ id }: { id: string }) {
  useLayoutEffect(() => hydrationGate.sliceHydrated(id), [id]);
  return null;
}

/** Equal props: the same values, arrays of the same items (a block list of one block is a new array each render). */
function sameProps(a: Record<string, unknown>, b: Record<string, unknown>): boolean {
  const keys = Object.keys(a);
  if (keys.length !== Object.keys(b).length) return false;
  return keys.every((key) => {
    const [x, y] = [a[key], b[key]];
    if (Array.isArray(x) && Array.isArray(y))
      return x.length === y.length && x.every((item, i) => item === y[i]);
    return Object.is(x, y);
  });
}

/**
 * Whether a slice's content is the same element as before. The component around a slice re-renders (the widget as
 * the page scrolls), and a slice not hydrated yet that got a new element then had to hydrate at once, inside that
 * render: both of the widget's forms in one task of 400-600 ms on a slow phone.
 */
export function sameContent(previous: { children: ReactNode }, next: { children: ReactNode }): boolean {
  const [a, b] = [previous.children, next.children];
  if (a === b) return true;
  if (!isValidElement(a) || !isValidElement(b)) return false;
  return (
    a.type === b.type &&
    a.key === b.key &&
    sameProps(a.props as Record<string, unknown>, b.props as Record<string, unknown>)
  );
}

/**
 * A part of the page that React hydrates on its own (a Suspense boundary; nothing in it ever suspends). The page's
 * frame hydrates first and the slices follow in small steps; the visitor's taps and key presses stay the browser's
 * until every slice is in (renderer/shell/hydration-gate.ts), so none of them waits for a slice to hydrate.
 */
export const HydrationSlice = memo(function HydrationSlice({ children }: { children: ReactNode }) {
  const id = useId();
  useLayoutEffect(() => hydrationGate.sliceRegistered(id), [id]);
  return (
    <Suspense fallback={null}>
      <Hydrated id={id} />
      {children}
    </Suspense>
  );
}, sameContent);
