// Refused requests to the staff API (403: cross-site, admins only, a bad invitation; 429: sign-in limits) in the log
// and the audit log, never with what the request carried. Who: the member of the session the request came with, or
// `anonymous` with a coarse client hint (the address's /24, or its IPv6 /56). Bounded so that a flood of refusals
// cannot flood the audit table: per actor and minute, the first refusal is written at once and the rest are counted,
// their count written when the minute ends; past MAX_ACTORS in one minute, the anonymous ones share one actor.
import type { Request, Response } from 'express';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config.ts';
import { addressKey } from '../forms/form-rate-limit.ts';
import { trustFunction } from '../http/security.ts';
import type { SignedIn, StaffDeps } from './staff-context.ts';
import { sessionEnd } from './staff-session-life.ts';
import { sessionIdOf } from './staff-session.ts';

export const REFUSAL_WINDOW_MS = 60 * 1000;
const MAX_ACTORS = 100;

interface Window {
  /** Refusals after the first, not yet written. */
  more: number;
  last: string;
}

/** The address as a coarse hint: its /24 (IPv4) or /56 (IPv6), never the whole address. */
export function coarseHint(address: string | undefined): string {
  if (address === undefined || !ipaddr.isValid(address)) return 'unknown';
  const parsed = ipaddr.process(address);
  if (parsed.kind() !== 'ipv4') return addressKey(address);
  return `${parsed.toString().split('.').slice(0, 3).join('.')}.0/24`;
}

export function refusalAudit(deps: StaffDeps, trustProxy: TrustProxy) {
  const { audit, logger, staff } = deps;
  const trust = trustFunction(trustProxy);
  const windows = new Map<string, Window>();

  async function actorOf(req: Request, res: Response): Promise<string> {
    const signed = res.locals.signedIn as SignedIn | undefined;
    if (signed) return signed.member.email;
    const sessionId = sessionIdOf(req, staff, deps.origin);
    // Looked at, never touched: a refused request keeps no session alive.
    const session = sessionId && (await staff.session(sessionId).catch(() => undefined));
    if (session && !sessionEnd(session, deps.sessionLimits, deps.now())) return session.member.email;
    return `anonymous ${coarseHint(proxyaddr(req, trust))}`;
  }

  const write = async (actor: string, detail: string) => {
    logger.warn({ refused: detail }, 'staff request refused');
    await audit.append({ actor, action: 'refused', detail }).catch((error: unknown) => {
      logger.error({ err: (error as Error).message }, 'a refused request could not be audited');
    });
  };

  /** Records one refusal (the first of its actor's minute before the answer goes); never throws. */
  return async function refused(req: Request, res: Response, status: number, reason: string): Promise<void> {
    let actor: string;
    try {
      actor = await actorOf(req, res);
    } catch {
      actor = 'anonymous unknown';
    }
    if (!windows.has(actor) && windows.size >= MAX_ACTORS && actor.startsWith('anonymous '))
      actor = 'anonymous many';
    // The path (a lead's id at most), never the query string; a made-up one cut short and kept to plain characters.
    const path = `${req.baseUrl}${req.path}`.slice(0, 120).replace(/[^\w/.-]/g, '_');
    const detail = `status=${status} ${req.method} ${path} reason=${reason}`;
    const open = windows.get(actor);
    if (open) {
      open.more += 1;
      open.last = detail;
      return;
    }
    const window: Window = { more: 0, last: detail };
    windows.set(actor, window);
    setTimeout(() => {
      windows.delete(actor);
      if (window.more > 0)
        void write(actor, `${window.last} count=${window.more} (more in the minute after the first)`);
    }, REFUSAL_WINDOW_MS).unref();
    await write(actor, `${detail} count=1`);
  };
}
