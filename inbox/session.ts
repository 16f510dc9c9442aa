// Who is signed in, for every screen. The root route's `beforeLoad` (router.tsx) asks the server once and keeps the
// answer; a screen that needs a session is never drawn without one: the route sends the staff member to sign in, and
// back to where they were after. A 401 from any later request forgets the session and does the same.
import { useCallback } from 'react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import type { Me } from '../contracts/staff-api.ts';
import { api, ApiError } from './api.ts';
import { sessionRefused } from './idle.ts';

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

/** The session ended (a 401): known signed out, without asking again, and why when it was for being away. */
export const signedOut = () => {
  sessionRefused();
  known = Promise.resolve(null);
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
    await router.invalidate();
  }, [router]);
  return { me, problem, refresh };
}
