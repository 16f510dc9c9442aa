// Rate-limit counters in PostgreSQL, shared by every instance: rate-limiter-flexible's RateLimiterPostgres on the
// store's pool, in the table our migration makes (pg-schema.ts), so the library never creates one itself (its own
// creation runs unawaited when a limiter is made, and a database down at that moment would be an unhandled rejection).
// A count must never make a visitor wait on the database or turn into a 500: a query that fails, or has not answered
// within RATE_LIMIT_TIMEOUT_MS, is counted in this process's memory instead (the library's insurance limiter), so
// during an outage each instance holds the limit on its own. A key's counts go one at a time, those asked for meanwhile
// together in the next (rate-counters.ts: coalesced), so the site-wide ceiling is not one round trip per form post.
import type pg from 'pg';
import { RateLimiterPostgres, RLWrapperTimeouts } from 'rate-limiter-flexible';
import { coalesced, memoryLimiter, type RateCounters } from '../rate-counters.ts';

export const RATE_LIMIT_TABLE = 'rate_limits';
/** Far above a healthy database's answer, far below the wait a visitor notices. */
export const RATE_LIMIT_TIMEOUT_MS = 300;
/** Counters whose window ended this long ago are deleted (they hold network addresses). */
const KEEP_EXPIRED_MS = 60 * 60 * 1000;
const CLEAR_EVERY_MS = 5 * 60 * 1000;

export interface PostgresCounters {
  counters: RateCounters;
  /** Stops the clearing of expired counters (the store's close). */
  stop(): void;
}

export function postgresCounters(pool: pg.Pool, timeoutMs = RATE_LIMIT_TIMEOUT_MS): PostgresCounters {
  const clear = setInterval(() => {
    pool
      .query(`DELETE FROM ${RATE_LIMIT_TABLE} WHERE expire < $1`, [Date.now() - KEEP_EXPIRED_MS])
      .catch(() => undefined);
  }, CLEAR_EVERY_MS);
  clear.unref();
  return {
    counters(options) {
      const insuranceLimiter = memoryLimiter(options);
      const shared = new RateLimiterPostgres({
        storeClient: pool,
        storeType: 'pool',
        tableName: RATE_LIMIT_TABLE,
        tableCreated: true,
        // Cleared above, by a timer the store stops on close (the library's own cannot be stopped).
        clearExpiredByTimeout: false,
        keyPrefix: options.name,
        points: options.points,
        duration: options.duration,
        insuranceLimiter,
      });
      return coalesced(
        new RLWrapperTimeouts({ limiter: shared, timeoutMs, insuranceLimiter }),
        options.points,
      );
    },
    stop: () => clearInterval(clear),
  };
}
