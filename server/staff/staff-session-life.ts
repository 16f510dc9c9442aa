// How long a staff session lives (HIPAA's automatic logoff): it is over `idleMs` after its member's last own activity,
// and `absoluteMs` after its sign-in whatever they do. Only the member's own requests are activity: the inbox marks
// those it makes on its own (X-Staff-Background: 1, such as the list refreshed after a new lead) and the event stream
// is never activity. Marking is no way around anything: a background request still needs a live session (it only
// leaves the deadline where it was), and a reading request marked so is still audited, as the inbox's own
// (staff-leads.ts), so a client that marks its member's reads hides none of them and only shortens its own session.
import type { IncomingMessage } from 'node:http';
import { BACKGROUND_HEADER, type SessionClock } from '../../contracts/staff-api.ts';
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { StaffSession, StaffSessionInfo, StaffStore } from '../store/contract/staff-store.ts';
import { endShiftsWithoutSession } from './shift-end.ts';

export interface SessionLimits {
  /** Over this long after its member's last own activity. */
  idleMs: number;
  /** Over this long after its sign-in. */
  absoluteMs: number;
}

export const DEFAULT_SESSION_LIMITS: SessionLimits = {
  idleMs: 15 * 60 * 1000,
  absoluteMs: 12 * 60 * 60 * 1000,
};

/** Adding or removing a passkey needs a user-verified passkey assertion of the session at most this old. */
export const FRESH_ASSERTION_MS = 5 * 60 * 1000;

const BACKGROUND = BACKGROUND_HEADER.toLowerCase();

/** Whether the inbox made this request on its own, not at its member's click, key press or navigation. */
export const isBackground = (req: IncomingMessage): boolean => req.headers[BACKGROUND] === '1';

/**
 * A session's last-seen time is written at most this often (a write per request would be for nothing): so its idle end
 * comes at most this much before the idle limit after the last activity, never after.
 */
export const touchEvery = (limits: SessionLimits): number => Math.min(15_000, limits.idleMs / 20);

export type SessionEnd = 'revoked' | 'idle' | 'absolute';

/** Why a session is over at `now`, or undefined while it lives. */
export function sessionEnd(
  session: StaffSession,
  limits: SessionLimits,
  now: number,
): SessionEnd | undefined {
  if (session.member.revokedAt !== null) return 'revoked';
  if (now - session.createdAt >= limits.absoluteMs) return 'absolute';
  if (now - session.lastSeenAt >= limits.idleMs) return 'idle';
  return undefined;
}

/** When a session ends, as the inbox learns it (GET /session, GET /me). */
export function sessionClock(session: StaffSessionInfo, limits: SessionLimits, now: number): SessionClock {
  const absoluteEnd = session.createdAt + limits.absoluteMs;
  return {
    idleExpiresAt: new Date(Math.min(session.lastSeenAt + limits.idleMs, absoluteEnd)).toISOString(),
    expiresAt: new Date(absoluteEnd).toISOString(),
    idleSeconds: Math.round(limits.idleMs / 1000),
    serverTime: new Date(now).toISOString(),
  };
}

/** A short, stable name of a session for the audit log (its handle is a hash: this gives nothing away). */
export const sessionRef = (session: { id: string }): string => `session ${session.id.slice(0, 8)}`;

export interface SessionKeeperDeps {
  staff: StaffStore;
  audit: AuditLog;
  now: () => number;
  sessionLimits: SessionLimits;
}

/** Sessions as the staff area checks them: each that is found over is deleted, and its automatic end audited once. */
export function sessionKeeper(deps: SessionKeeperDeps) {
  const { staff, audit, now, sessionLimits } = deps;
  /** Ends an over session; audits the timeout when this call ended it (two requests at once: one row). */
  async function over(session: StaffSession, sessionId: string | undefined, end: SessionEnd) {
    const ended = sessionId
      ? await staff.endSession(sessionId)
      : await staff.endSessionOf(session.member.id, session.id);
    if (ended && end !== 'revoked') {
      const limit = end === 'idle' ? 'idle limit' : 'absolute limit';
      await audit.append({
        actor: session.member.email,
        action: 'session-timeout',
        detail: `${limit}, ${sessionRef(session)}`,
      });
      await endShiftsWithoutSession(deps, { staffId: session.member.id, why: limit });
    }
  }

  return {
    /**
     * The live session of this id, or undefined (an ended one's row is deleted). `activity`: the request is its
     * member's own, and moves the idle end.
     */
    async live(sessionId: string, activity: boolean): Promise<StaffSession | undefined> {
      const session = await staff.session(sessionId);
      if (!session) return undefined;
      const at = now();
      const end = sessionEnd(session, sessionLimits, at);
      if (end) {
        await over(session, sessionId, end);
        return undefined;
      }
      if (!activity || at - session.lastSeenAt < touchEvery(sessionLimits)) return session;
      await staff.touchSession(sessionId, at);
      return { ...session, lastSeenAt: at };
    },
    /** The member's live sessions, newest first; those found over are ended on the way. */
    async liveOf(member: StaffSession['member']): Promise<StaffSessionInfo[]> {
      const live: StaffSessionInfo[] = [];
      for (const info of await staff.sessionsOf(member.id)) {
        const end = sessionEnd({ ...info, member }, sessionLimits, now());
        if (end) await over({ ...info, member }, undefined, end);
        else live.push(info);
      }
      return live;
    },
  };
}

export type SessionKeeper = ReturnType<typeof sessionKeeper>;

const BROWSERS: [RegExp, string][] = [
  [/Edg(e|A|iOS)?\//, 'Edge'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/OPR\//, 'Opera'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/iPhone/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/Android/, 'Android'],
  [/CrOS/, 'ChromeOS'],
  [/Macintosh|Mac OS X/, 'Mac'],
  [/Windows/, 'Windows'],
  [/Linux/, 'Linux'],
];

/** The browser and system of a request in words ("Chrome on Android"), so a member knows their sessions apart. */
export function deviceOf(req: IncomingMessage): string | null {
  const agent = req.headers['user-agent'] ?? '';
  const browser = BROWSERS.find(([pattern]) => pattern.test(agent))?.[1];
  const system = SYSTEMS.find(([pattern]) => pattern.test(agent))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? system ?? null;
}
