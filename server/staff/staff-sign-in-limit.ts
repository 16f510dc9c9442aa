// Failed sign-ins per address (its IPv6 /56, as the form limit counts), in memory with rate-limiter-flexible: a few
// mistakes are forgiven, a guessing script is stopped with 429 and Retry-After until its window ends.
import type { IncomingMessage, ServerResponse } from 'node:http';
import proxyaddr from 'proxy-addr';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { TrustProxy } from '../config.ts';
import { addressKey } from '../forms/form-rate-limit.ts';
import { trustFunction } from '../http/security.ts';
import { HttpError } from './staff-context.ts';

export const SIGN_IN_WINDOW_SECONDS = 15 * 60;
export const SIGN_IN_FAILURES = 10;

export interface SignInLimit {
  /** Refuses (429) an address that has used up its failures. */
  check(req: IncomingMessage, res: ServerResponse): Promise<void>;
  /** Counts a failure. */
  failed(req: IncomingMessage): Promise<void>;
}

export function signInLimit(trustProxy: TrustProxy, failures = SIGN_IN_FAILURES): SignInLimit {
  const limiter = new RateLimiterMemory({ points: failures, duration: SIGN_IN_WINDOW_SECONDS });
  const trust = trustFunction(trustProxy);
  const keyOf = (req: IncomingMessage) => addressKey(proxyaddr(req, trust));
  const refuse = (res: ServerResponse, counted: RateLimiterRes): never => {
    res.setHeader('Retry-After', String(Math.max(1, Math.ceil(counted.msBeforeNext / 1000))));
    throw new HttpError(429, 'too many failed sign-ins; try again later');
  };
  return {
    async check(req, res) {
      const counted = await limiter.get(keyOf(req));
      if (counted && counted.remainingPoints <= 0) refuse(res, counted);
    },
    async failed(req) {
      try {
        await limiter.consume(keyOf(req));
      } catch (refused) {
        // Over the limit, the library rejects with the count; this failure is answered 401, the next one 429.
        if (!(refused instanceof RateLimiterRes)) throw refused;
      }
    },
  };
}
