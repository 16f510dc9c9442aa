// Rate-limit counters where the store keeps them: in this process's memory beside the SQLite file (one instance per
// site: shared/memory-counters.ts), in PostgreSQL beside DATABASE_URL (postgres/pg-rate-limits.ts), so a limit holds
// across every instance.
import type { RateLimiterAbstract } from 'rate-limiter-flexible';

export interface RateCounterOptions {
  /** Tells one limit's counts from another's (the key prefix). */
  name: string;
  /** Points a key may consume per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
}

/** Makes a rate-limiter-flexible limiter counting in the store. */
export type RateCounters = (options: RateCounterOptions) => RateLimiterAbstract;
