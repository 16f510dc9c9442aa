import { Suspense, type ReactNode } from 'react';

/**
 * A part of the page that React hydrates on its own (a Suspense boundary; nothing in it ever suspends). The page's
 * frame hydrates first and the slices follow in small idle steps, so a visitor's first touch never waits for the
 * whole page: a tap or key press inside a slice not yet hydrated hydrates that slice alone, at once.
 */
export function HydrationSlice({ children }: { children: ReactNode }) {
  return <Suspense fallback={null}>{children}</Suspense>;
}
