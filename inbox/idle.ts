// When the session ends, as the app knows it: the server's answer (GET /session, GET /me), counted in this browser's
// clock. The idle watch (auth/IdleWatch.tsx) warns a minute before the idle end; when a request is refused as signed
// out at (or after) that end, the sign-in screen says the member was signed out for being away, and how long.
import type { SessionClock } from '../contracts/staff-api.ts';

/** The session's two ends, in this browser's clock (epoch ms). */
export interface SessionEnds {
  /** Unless its member acts before. */
  idleEndAt: number;
  /** Whatever they do. */
  endAt: number;
  idleSeconds: number;
}

/** Why the app was signed out, when it was not the member's own sign-out. */
export type SignedOutReason = { kind: 'idle'; idleSeconds: number } | { kind: 'limit' };

/** A server's answer, received at `receivedAt`, in this browser's clock (whatever the two clocks say). */
export function endsOf(clock: SessionClock, receivedAt: number): SessionEnds {
  const offset = receivedAt - Date.parse(clock.serverTime);
  return {
    idleEndAt: Date.parse(clock.idleExpiresAt) + offset,
    endAt: Date.parse(clock.expiresAt) + offset,
    idleSeconds: clock.idleSeconds,
  };
}

/** How long before the idle end the warning comes: a minute, or a third of a shorter limit. */
export const warningLead = (idleSeconds: number): number => Math.min(60_000, (idleSeconds * 1000) / 3);

/** "15 minutes", "1 minute", "20 seconds", "90 seconds". */
export function duration(seconds: number): string {
  const whole = Math.max(0, Math.round(seconds));
  if (whole % 60 === 0 && whole > 0) return whole === 60 ? '1 minute' : `${whole / 60} minutes`;
  if (whole < 120) return whole === 1 ? '1 second' : `${whole} seconds`;
  return `${Math.round(whole / 60)} minutes`;
}

/**
 * Why a session refused at `now` ended, from what was known of it: at its absolute end, or at its idle end (the server
 * writes activity only every few seconds, so its idle end may come that much sooner); else undefined (a revoke, a
 * sign-out elsewhere).
 */
export function endReason(ends: SessionEnds | undefined, now: number): SignedOutReason | undefined {
  if (!ends) return undefined;
  if (now >= ends.endAt - 2_000) return { kind: 'limit' };
  const slack = Math.min(15_000, (ends.idleSeconds * 1000) / 20) + 2_000;
  return now >= ends.idleEndAt - slack ? { kind: 'idle', idleSeconds: ends.idleSeconds } : undefined;
}

let known: SessionEnds | undefined;
let reason: SignedOutReason | undefined;
const listeners = new Set<() => void>();

/** Learns the session's ends from a server's answer. */
export function noteSessionClock(clock: SessionClock, receivedAt: number): void {
  known = endsOf(clock, receivedAt);
  for (const listener of listeners) listener();
}

export const knownEnds = (): SessionEnds | undefined => known;

/** Calls `listener` whenever the ends are learnt afresh; returns how to stop. */
export function onSessionClock(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The session was refused (a 401): why, judged now, kept for the sign-in screen; the ends are forgotten. */
export function sessionRefused(now = Date.now()): void {
  reason = endReason(known, now) ?? reason;
  known = undefined;
}

export const signedOutReason = (): SignedOutReason | undefined => reason;
/** Signed in again: nothing to explain any more. */
export const forgetSignedOutReason = (): void => {
  reason = undefined;
};
