// Sign-in limits per address (its IPv6 /56, as the form limit counts), where the lead store counts: failed
// sign-ins (a few mistakes are forgiven, a guessing script is stopped), and ceremony starts, each of which stores a
// challenge row for a signed-out request. Over either, 429 with Retry-After until its window ends. The challenge table
// itself counts by network (networkKey): many addresses of one network share its quota there.
import type { IncomingMessage, ServerResponse } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { TrustProxy } from '../config.ts';
import { addressKey } from '../forms/form-rate-limit.ts';
import { trustFunction } from '../http/security.ts';
import type { RateCounters } from '../store/contract/rate-counters.ts';
import { memoryCounters } from '../store/shared/memory-counters.ts';
import { HttpError } from './staff-context.ts';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_FAILURES = 10;
export const CEREMONY_WINDOW_SECONDS = 10 * 60;
/** Far above a person's needs (each try at signing in or enrolling is one), far below what fills the table. */
export const CEREMONY_STARTS = 30;

/** The network of an address, as the challenge table counts them: its IPv4 /24 or IPv6 /64 (one site's or one host's). */
export function networkKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return `${parsed.toByteArray().slice(0, 3).join('.')}.0/24`;
  return `${Buffer.from(parsed.toByteArray().slice(0, 8)).toString('hex')}/64`;
}

export interface SignInLimit {
  /** The network of the request's address (networkKey), behind TRUST_PROXY as the limits read it. */
  networkOf(req: IncomingMessage): string;
  /** Refuses (429) an address that has used up its failures. */
  check(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Counts a failure. */
  failed(req: IncomingMessage): Promise<void>;
  /** Counts the start of a ceremony (sign-in or enrolment options); refuses (429) one over the limit. */
  started(req: IncomingMessage, res: ServerResponse): Promise<void>;
}

export function signInLimit(
  trustProxy: TrustProxy,
  failures = SIGN_IN_FAILURES,
  starts = CEREMONY_STARTS,
  counters: RateCounters = memoryCounters,
): SignInLimit {
  const failuresLimiter = counters({
    name: 'sign-in-failures',
    points: failures,
    duration: SIGN_IN_WINDOW_SECONDS,
  });
  const startsLimiter = counters({
    name: 'ceremony-starts',
    points: starts,
    duration: CEREMONY_WINDOW_SECONDS,
  });
  const trust = trustFunction(trustProxy);
  const keyOf = (req: IncomingMessage) => addressKey(proxyaddr(req, trust));
  const networkOf = (req: IncomingMessage) => networkKey(proxyaddr(req, trust));
  const refuse = (res: ServerResponse, counted: RateLimiterRes, message: string): never => {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(counted.msBeforeNext / 1000))));
    throw new HttpError(429, message);
  };
  return {
    networkOf,
    async check(req, res) {
      const counted = await failuresLimiter.get(keyOf(req));
      if (counted && counted.remainingPoints <= 0)
        refuse(res, counted, 'too many failed sign-ins; try again later');
    },
    async failed(req) {
      try {
        await failuresLimiter.consume(keyOf(req));
      } catch (refused) {
        // Over the limit, the library rejects with the count; this failure is answered 401, the next one 429.
        if (!(refused instanceof RateLimiterRes)) throw refused;
      }
    },
    async started(req, res) {
      try {
        await startsLimiter.consume(keyOf(req));
      } catch (refused) {
        if (!(refused instanceof RateLimiterRes)) throw refused;
        refuse(res, refused, 'too many sign-in attempts; try again later');
      }
    },
  };
}
