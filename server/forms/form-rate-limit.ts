// Limits on form submissions: per address (a person sends a form a few times at most, a script thousands), then one
// ceiling for the whole site (a botnet, or a whole IPv6 /48, has more addresses than any per-address limit can count).
// The form API runs on Node's own request (server/forms/form-api.ts), so the counting is rate-limiter-flexible's, which
// needs no framework; the headers are those of the IETF RateLimit draft 7, and describe the per-address limit only.
import type { IncomingMessage, ServerResponse } from 'node:http';
import ipaddr from 'ipaddr.js';
import proxyaddr from 'proxy-addr';
import { RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';
import type { Logger } from '../logger.ts';
import type { TrustProxy } from '../config.ts';
import type { RateCounters } from '../store/contract/rate-counters.ts';
import { memoryCounters } from '../store/shared/memory-counters.ts';
import { trustFunction } from '../http/security.ts';

export const RATE_LIMIT_WINDOW_MS = 10 * 60 * 1000;
const WINDOW_SECONDS = RATE_LIMIT_WINDOW_MS / 1000;
// Providers give a home or an office a whole IPv6 /56, and its devices choose addresses in it at will: counted per
// address, each of them would have a limit of its own.
const IPV6_NETWORK_BYTES = 56 / 8;

export interface FormRateLimitOptions {
  /** Submissions one address may send per window (FORM_RATE_LIMIT). */
  limit: number;
  /** Submissions the whole site takes per window (FORM_GLOBAL_RATE_LIMIT). */
  siteLimit: number;
  /**
   * Which proxies' X-Forwarded-For names the visitor (TRUST_PROXY): behind a proxy, without it, every visitor would
   * share the proxy's address and its limit.
   */
  trustProxy: TrustProxy;
  logger: Logger;
  /** Where the counts live (the lead store's: shared by every instance on PostgreSQL); this process's memory by default. */
  counters?: RateCounters;
  /** The clock, for tests. */
  now?: () => number;
}

/** Which limit refused a request, and the seconds to wait (Retry-After is set). */
export interface RateLimitRefusal {
  scope: 'address' | 'site';
  retryAfter: number;
}

/** Whom a request is counted against: its IPv4 address (an IPv4-mapped IPv6 one too), or its IPv6 /56 network. */
export function addressKey(address: string): string {
  if (!ipaddr.isValid(address)) return address;
  const parsed = ipaddr.process(address);
  if (parsed.kind() === 'ipv4') return parsed.toString();
  const bytes = parsed.toByteArray().slice(0, IPV6_NETWORK_BYTES);
  return `${Buffer.from(bytes).toString('hex')}/56`;
}

/** Takes a point from `key`; the count after it, and whether it was over the limit. */
async function consume(
  limiter: RateLimiterAbstract,
  key: string,
): Promise<{ counted: RateLimiterRes; over: boolean }> {
  try {
    return { counted: await limiter.consume(key), over: false };
  } catch (refused) {
    // Over the limit, the library rejects with the count itself; anything else is a real failure.
    if (!(refused instanceof RateLimiterRes)) throw refused;
    return { counted: refused, over: true };
  }
}

const secondsOf = (counted: RateLimiterRes) => Math.max(1, Math.ceil(counted.msBeforeNext / 1000));

/**
 * Counts one POST to the form API, valid or not, so probing costs the same as sending, and sets the RateLimit
 * headers. Resolves with the refusal (Retry-After is set) when the address is over its limit, or, for a post its
 * address may send, when the site is over its ceiling; else undefined. A post refused for its address does not count
 * toward the ceiling, so one address cannot use it up. The site's first refusal in a window is logged, once.
 * The counts live where the lead store keeps them: in memory beside SQLite, in PostgreSQL for several instances.
 */
export function formRateLimit({
  limit,
  siteLimit,
  trustProxy,
  logger,
  counters = memoryCounters,
  now = Date.now,
}: FormRateLimitOptions) {
  const perAddress = counters({ name: 'form', points: limit, duration: WINDOW_SECONDS });
  const site = counters({ name: 'form-site', points: siteLimit, duration: WINDOW_SECONDS });
  const trust = trustFunction(trustProxy);
  let siteLoggedUntil = 0;

  return async (req: IncomingMessage, res: ServerResponse): Promise<RateLimitRefusal | undefined> => {
    // Both counts at once: on PostgreSQL they go in the same statement (postgres/pg-rate-limits.ts), where one after
    // the other would be two round trips for every post. A post refused for its address gives the site its point back.
    const [address, whole] = await Promise.all([
      consume(perAddress, addressKey(proxyaddr(req, trust))),
      consume(site, 'site'),
    ]);
    const resetSeconds = secondsOf(address.counted);
    res.setHeader('RateLimit-Policy', `${limit};w=${WINDOW_SECONDS}`);
    res.setHeader(
      'RateLimit',
      `limit=${limit}, remaining=${address.counted.remainingPoints}, reset=${resetSeconds}`,
    );
    let refusal: RateLimitRefusal | undefined;
    if (address.over) {
      refusal = { scope: 'address', retryAfter: resetSeconds };
      await site.reward('site', 1);
    } else if (whole.over) {
      refusal = { scope: 'site', retryAfter: secondsOf(whole.counted) };
      if (now() >= siteLoggedUntil) {
        siteLoggedUntil = now() + whole.counted.msBeforeNext;
        logger.warn(
          { siteLimit, windowSeconds: WINDOW_SECONDS, retryAfterSeconds: refusal.retryAfter },
          'site-wide form limit reached: every form post is refused until the window ends',
        );
      }
    }
    if (refusal) res.setHeader('Retry-After', String(refusal.retryAfter));
    return refusal;
  };
}

/** "5 minutes": the wait, as a person reads it. */
export const minutesOf = (seconds: number): string => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};
