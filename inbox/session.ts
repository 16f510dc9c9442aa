// Who is signed in, for every screen. The root route's `beforeLoad` (router.tsx) asks the server once and keeps the
// answer; a screen that needs a session is never drawn without one: the route sends the staff member to sign in, and
// back to where they were after. A 401 from a later request while a signed-in screen is open does not take that screen
// away: it "lapses" (the list or lead stays, marked as no longer current, with a banner and a button to sign in again,
// desk/StaleBanner.tsx), so a worker who comes back sees at once what happened and what they were looking at.
import { useCallback, useSyncExternalStore } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import type { Me } from '../contracts/staff-api.ts';
import { api, ApiError } from './api.ts';
import { sessionRefused } from './idle.ts';
import { halt, resume } from './desk/desk-stream.ts';

/** What the root route's `beforeLoad` puts in every route's context. */
export type Session = {
  /** null when signed out. */
  me: Me | null;
  /** The app's problem reaching the server, if any (not a 401). */
  problem?: string;
};

let known: Promise<Me | null> | undefined;

/** The signed-in member, asked of the server only when not known yet (a failure is not kept: asked again next time). */
export async function readSession(): Promise<Session> {
  known ??= api.me().catch((error: unknown) => {
    if (error instanceof ApiError && error.status === 401) return null;
    known = undefined;
    throw error;
  });
  try {
    return { me: await known };
  } catch (error) {
    return { me: null, problem: error instanceof Error ? error.message : String(error) };
  }
}

/** A session that ended under an open screen: when it was found out (the banner's time is the last update's). */
export interface Lapse {
  at: number;
}
let lapse: Lapse | undefined;
const lapseListeners = new Set<() => void>();
const setLapse = (next: Lapse | undefined) => {
  lapse = next;
  for (const listener of lapseListeners) listener();
};
const onLapse = (listener: () => void) => {
  lapseListeners.add(listener);
  return () => void lapseListeners.delete(listener);
};
/** The session's end under an open screen, or undefined while signed in (or on a screen anyone may open). */
export const useLapse = (): Lapse | undefined => useSyncExternalStore(onLapse, () => lapse);

/**
 * The session ended (a 401): known signed out, without asking again, and why when it was for being away. True when a
 * signed-in screen is open: it stays, lapsed; false when the router should send the staff member to sign in now.
 */
export const signedOut = (): boolean => {
  sessionRefused();
  known = Promise.resolve(null);
  if (isPublicPath(window.location.pathname)) return false;
  // The first 401 says when: later ones (the same screen's other requests) change nothing.
  halt();
  if (!lapse) setLapse({ at: Date.now() });
  return true;
};

/** Screens anyone may open: the rest need a session. */
const PUBLIC = ['/sign-in', '/enrol'];
export const pathInApp = (pathname: string) => pathname.replace(/^\/staff(?=\/|$)/, '') || '/';
export const isPublicPath = (pathname: string) => PUBLIC.includes(pathInApp(pathname));

const rootApi = getRouteApi('__root__');

export function useSession() {
  const { me, problem } = rootApi.useRouteContext();
  const router = useRouter();
  /** Asks the server again (after sign-in, enrolment, a new passkey or sign-out), and every route's loader with it. */
  const refresh = useCallback(async () => {
    known = undefined;
    setLapse(undefined);
    resume();
    await router.invalidate();
  }, [router]);
  return { me, problem, refresh };
}
