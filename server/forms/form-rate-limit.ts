// Per-address limit on form submissions: a person sends a form a few times at most, a script sends thousands. The
// form API runs on Node's own request (server/forms/form-api.ts), so the counting is rate-limiter-flexible's, which needs
// no framework; the headers are those of the IETF RateLimit draft 7.
import type { IncomingMessage, ServerResponse } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import type { Logger } from '../logger.ts';
import type { TrustProxy } from '../config.ts';
import { trustFunction } from '../http/security.ts';

export const RATE_LIMIT_WINDOW_MS = 10 * 60 * 1000;
const WINDOW_SECONDS = RATE_LIMIT_WINDOW_MS / 1000;
// Providers give a home or an office a whole IPv6 /56, and its devices choose addresses in it at will: counted per
// address, each of them would have a limit of its own.
const IPV6_NETWORK_BYTES = 56 / 8;

export interface FormRateLimitOptions {
  /** Submissions one address may send per window (FORM_RATE_LIMIT). */
  limit: number;
  /**
   * Which proxies' X-Forwarded-For names the visitor (TRUST_PROXY): behind a proxy, without it, every visitor would
   * share the proxy's address and its limit.
   */
  trustProxy: TrustProxy;
  logger: Logger;
}

/** Whom a request is counted against: its IPv4 address (an IPv4-mapped IPv6 one too), or its IPv6 /56 network. */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().slice(0, IPV6_NETWORK_BYTES);
  return `${Buffer.from(bytes).toString('hex')}/56`;
}

/**
 * Counts one POST to the form API, valid or not, so probing costs the same as sending, and sets the RateLimit
 * headers. Resolves with the seconds to wait (Retry-After is set) when the address is over its limit, else undefined.
 * The counts live in memory: one server process per site (the SQLite store makes that so); a restart forgives everyone.
 */
export function formRateLimit({ limit, trustProxy, logger }: FormRateLimitOptions) {
  const limiter = new RateLimiterMemory({ points: limit, duration: WINDOW_SECONDS });
  const trust = trustFunction(trustProxy);
  let hinted = false;

  return async (req: IncomingMessage, res: ServerResponse): Promise<number | undefined> => {
    if (!hinted && trustProxy === false && req.headers['x-forwarded-for'] !== undefined) {
      // What the first such request carried, a visitor chose: a hint for whoever deploys, given once, not an error.
      hinted = true;
      logger.warn(
        'a form post came with X-Forwarded-For while TRUST_PROXY trusts no proxy: behind a proxy, every visitor ' +
          'shares its address and its rate limit. Set TRUST_PROXY when the server runs behind one',
      );
    }
    let counted: RateLimiterRes;
    let over = false;
    try {
      counted = await limiter.consume(addressKey(proxyaddr(req, trust)));
    } catch (refused) {
      // Over the limit, the library rejects with the count itself; anything else is a real failure.
      if (!(refused instanceof RateLimiterRes)) throw refused;
      counted = refused;
      over = true;
    }
    const resetSeconds = Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
    res.setHeader('RateLimit-Policy', `${limit};w=${WINDOW_SECONDS}`);
    res.setHeader('RateLimit', `limit=${limit}, remaining=${counted.remainingPoints}, reset=${resetSeconds}`);
    if (!over) return undefined;
    res.setHeader('Retry-After', String(resetSeconds));
    return resetSeconds;
  };
}

/** "5 minutes": the wait, as a person reads it. */
export const minutesOf = (seconds: number): string => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};
