// Staff sessions: a random id in a signed cookie, checked on every request against its row, so that a sign-out or a
// revoke ends it at once. Idle for 15 minutes or 12 hours old, it is over. CSRF: every state-changing request must come
// from a page of this origin (Origin) and say so (X-Staff-Request: 1), which a cross-site form or fetch cannot.
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import ipaddr from 'ipaddr.js';
import type { Response } from 'express';
import type { StaffSession, StaffStore } from '../store/contract/staff-store.ts';

export const SESSION_COOKIE = 'staff_session';
export const IDLE_TIMEOUT_MS = 15 * 60 * 1000;
export const ABSOLUTE_TIMEOUT_MS = 12 * 60 * 60 * 1000;
// A session's last-seen time is written at most this often: one write per request would be for nothing.
const TOUCH_EVERY_MS = 60 * 1000;

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

/** Whether a session is over at `now`: its member revoked, idle too long, or too old. */
export const sessionOver = (session: StaffSession, now: number): boolean =>
  session.member.revokedAt !== null ||
  now - session.lastSeenAt >= IDLE_TIMEOUT_MS ||
  now - session.createdAt >= ABSOLUTE_TIMEOUT_MS;

/**
 * The live session of this id, or undefined (an ended one's row is deleted). `touch` counts the request as activity:
 * the event stream, which a tab keeps open unattended, does not.
 */
export async function liveSession(
  store: StaffStore,
  sessionId: string,
  now: number,
  touch: boolean,
): Promise<StaffSession | undefined> {
  const session = await store.session(sessionId);
  if (!session) return undefined;
  if (sessionOver(session, now)) {
    await store.endSession(sessionId);
    return undefined;
  }
  if (touch && now - session.lastSeenAt >= TOUCH_EVERY_MS) await store.touchSession(sessionId, now);
  return session;
}
