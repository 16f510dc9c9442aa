// Who is signed in, for every screen: undefined while the app asks the server, null when signed out. A 401 from any
// request signs the app out and sends the staff member to the sign-in screen, and back to where they were after.
import { createContext, useCallback, useContext, useEffect, useMemo, useState, type ReactNode } from 'react';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import type { Me } from '../contracts/staff-api.ts';
import { api, ApiError, whenSignedOut } from './api.ts';

type Session = {
  me: Me | null | undefined;
  /** Asks the server again (after sign-in, enrolment or a new passkey). */
  refresh: () => Promise<void>;
  /** The app's problem reaching the server at start, if any (not a 401). */
  problem?: string;
};
const SessionContext = createContext<Session>({ me: undefined, refresh: async () => undefined });
export const useSession = () => useContext(SessionContext);

/** Screens anyone may open: the rest need a session. */
const PUBLIC = ['/sign-in', '/enrol'];
const pathInApp = (pathname: string) => pathname.replace(/^\/staff(?=\/|$)/, '') || '/';
export const isPublicPath = (pathname: string) => PUBLIC.includes(pathInApp(pathname));

export function SessionProvider({ children }: { children: ReactNode }) {
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  const [problem, setProblem] = useState<string>();
  const navigate = useNavigate();
  const location = useRouterState({ select: (state) => state.location });
  const here = location.href;

  const refresh = useCallback(async () => {
    try {
      setMe(await api.me());
      setProblem(undefined);
    } catch (error) {
      if (error instanceof ApiError && error.status === 401) setMe(null);
      else setProblem(error instanceof Error ? error.message : String(error));
    }
  }, []);
  useEffect(() => void refresh(), [refresh]);

  const signedOutHere = useCallback(() => {
    setMe(null);
    if (!isPublicPath(location.pathname))
      void navigate({ to: '/sign-in', search: { next: pathInApp(here) }, replace: true });
  }, [here, location.pathname, navigate]);
  useEffect(() => whenSignedOut(signedOutHere), [signedOutHere]);
  useEffect(() => {
    // Only when the session ends, not on every navigation while signed out (the sign-in screen itself navigates).
    if (me === null) signedOutHere();
  }, [me]);

  const value = useMemo(() => ({ me, refresh, problem }), [me, refresh, problem]);
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}
