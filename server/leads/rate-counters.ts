// Rate-limit counters where the store keeps them: in this process's memory beside the SQLite file (one instance per
// site), in PostgreSQL beside DATABASE_URL (postgres/pg-rate-limits.ts), so a limit holds across every instance.
import { RateLimiterMemory, type RateLimiterRes } from 'rate-limiter-flexible';

export interface RateCounterOptions {
  /** Tells one limit's counts from another's (the key prefix). */
  name: string;
  /** Points a key may consume per window. */
  points: number;
  /** The window, in seconds. */
  duration: number;
}

/** What the limits use of a rate-limiter-flexible limiter. */
export interface RateCounter {
  /** Takes a point from `key`: resolves with the count, or, over the limit, rejects with it (a RateLimiterRes). */
  consume(key: string): Promise<RateLimiterRes>;
  /** Gives `points` back to `key`. */
  reward(key: string, points: number): Promise<RateLimiterRes>;
  /** The count of `key`, without taking a point; null when it has none. */
  get(key: string): Promise<RateLimiterRes | null>;
}

/** Makes a counter of one limit, counting in the store. */
export type RateCounters = (options: RateCounterOptions) => RateCounter;

/** The limiter that counts in this process's memory. */
export const memoryLimiter = ({ name, points, duration }: RateCounterOptions): RateLimiterMemory =>
  new RateLimiterMemory({ keyPrefix: name, points, duration });

export const memoryCounters: RateCounters = memoryLimiter;
