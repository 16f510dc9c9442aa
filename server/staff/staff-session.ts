// Staff sessions: a random id in a signed cookie, checked on every request against its row, so that a sign-out or a
// revoke ends it at once. How long one lives, and what keeps it alive: staff-session-life.ts. CSRF: every state-changing request must come
// from a page of this origin (Origin) and say so (X-Staff-Request: 1), which a cross-site form or fetch cannot.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import type { Response } from 'express';
import type { StaffStore } from '../store/contract/staff-store.ts';

export const SESSION_COOKIE = 'staff_session';

/** The session cookie's name at an HTTPS origin: a browser keeps it only Secure, Path=/ and set by this very host. */
export const HOST_SESSION_COOKIE = `__Host-${SESSION_COOKIE}`;

/** The session cookie's name at the staff origin: `__Host-` over HTTPS; plain on loopback http, which it needs Secure for. */
export const sessionCookieName = (origin: string): string =>
  origin.startsWith('https:') ? HOST_SESSION_COOKIE : SESSION_COOKIE;

/** Whether a state-changing request came from a page of the staff origin (STAFF_ORIGIN), through the app. */
export function sameOriginRequest(req: IncomingMessage, origin: string): boolean {
  return req.headers.origin === origin && req.headers['x-staff-request'] === '1';
}

// Over HTTPS the `__Host-` prefix demands Secure, Path=/ and no Domain: no other host (a sibling subdomain) can set or
// overwrite it. Plain http is allowed on loopback only (server/config.ts), where a Secure cookie would never be sent.
const cookieOptions = (origin: string) =>
  origin.startsWith('https:')
    ? ({ httpOnly: true, sameSite: 'strict', path: '/', secure: true } as const)
    : ({ httpOnly: true, sameSite: 'strict', path: '/staff', secure: false } as const);

export function setSessionCookie(res: Response, store: StaffStore, sessionId: string, origin: string): void {
  res.cookie(sessionCookieName(origin), `${sessionId}.${store.sign(sessionId)}`, cookieOptions(origin));
}

export function clearSessionCookie(res: Response, origin: string): void {
  res.clearCookie(sessionCookieName(origin), cookieOptions(origin));
}

/** Every value of the session cookie the request carries (a browser sends two when another path or host set one). */
export function sessionCookies(req: IncomingMessage, origin: string): string[] {
  const name = sessionCookieName(origin);
  return (req.headers.cookie ?? '')
    .split(';')
    .map((part) => part.trim())
    .filter((part) => part.slice(0, part.indexOf('=')) === name)
    .map((part) => part.slice(name.length + 1));
}

/** The session id of a correctly signed cookie; undefined for none, two, or a forged or damaged one. */
export function sessionIdOf(req: IncomingMessage, store: StaffStore, origin: string): string | undefined {
  const cookies = sessionCookies(req, origin);
  if (cookies.length !== 1) return undefined;
  const [id, mac, extra] = (cookies[0] ?? '').split('.');
  if (!id || !mac || extra !== undefined) return undefined;
  const expected = Buffer.from(store.sign(id));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}
