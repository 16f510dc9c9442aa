// Staff sessions: a random id in a signed cookie, checked on every request against its row, so that a sign-out or a
// revoke ends it at once. How long one lives, and what keeps it alive: staff-session-life.ts. CSRF: every state-changing request must come
// from a page of this origin (Origin) and say so (X-Staff-Request: 1), which a cross-site form or fetch cannot.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { Response } from 'express';
import type { StaffStore } from '../store/contract/staff-store.ts';

export const SESSION_COOKIE = 'staff_session';

/** scheme://host of the request, as the browser that sent it sees this server. */
export function ownOrigin(req: IncomingMessage, secure: boolean): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  try {
    return new URL(`${secure ? 'https' : 'http'}://${host}`).origin;
  } catch {
    return undefined;
  }
}

/** Whether a state-changing request came from a page of this origin, through the app. */
export function sameOriginRequest(req: IncomingMessage, secure: boolean): boolean {
  const origin = ownOrigin(req, secure);
  return origin !== undefined && req.headers.origin === origin && req.headers['x-staff-request'] === '1';
}

function isLoopbackName(hostname: string): boolean {
  const bare = hostname.replace(/^\[(.*)\]$/, '$1');
  return bare === 'localhost' || (ipaddr.isValid(bare) && ipaddr.process(bare).range() === 'loopback');
}

/** The cookie is Secure unless the browser reached this server over plain HTTP on loopback (a developer's machine). */
function secureCookie(req: IncomingMessage, secure: boolean): boolean {
  if (secure) return true;
  const origin = ownOrigin(req, secure);
  return !(
    origin &&
    isLoopbackName(new URL(origin).hostname) &&
    isLoopbackName(req.socket.localAddress ?? '')
  );
}

const cookieOptions = (req: IncomingMessage, secure: boolean) =>
  ({ httpOnly: true, sameSite: 'strict', path: '/staff', secure: secureCookie(req, secure) }) as const;

export function setSessionCookie(
  res: Response,
  store: StaffStore,
  sessionId: string,
  req: IncomingMessage,
  secure: boolean,
): void {
  res.cookie(SESSION_COOKIE, `${sessionId}.${store.sign(sessionId)}`, cookieOptions(req, secure));
}

export function clearSessionCookie(res: Response, req: IncomingMessage, secure: boolean): void {
  res.clearCookie(SESSION_COOKIE, cookieOptions(req, secure));
}

/** The session id of a correctly signed cookie; undefined for none, or a forged or damaged one. */
export function sessionIdOf(req: IncomingMessage, store: StaffStore): string | undefined {
  const header = req.headers.cookie ?? '';
  const prefix = `${SESSION_COOKIE}=`;
  const cookie = header
    .split(';')
    .map((part) => part.trim())
    .find((part) => part.startsWith(prefix));
  const [id, mac, extra] = (cookie?.slice(prefix.length) ?? '').split('.');
  if (!id || !mac || extra !== undefined) return undefined;
  const expected = Buffer.from(store.sign(id));
  const given = Buffer.from(mac);
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : undefined;
}
