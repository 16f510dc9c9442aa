// Rate-limit counters where the store keeps them: in this process's memory beside the SQLite file (one instance per
// site), in PostgreSQL beside DATABASE_URL (postgres/pg-rate-limits.ts), so a limit holds across every instance.
import { RateLimiterMemory, RateLimiterRes, type RateLimiterAbstract } from 'rate-limiter-flexible';

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
  /** The count of `key`, without taking a point; null when it has none. */
  get(key: string): Promise<RateLimiterRes | null>;
}

/** Makes a counter of one limit, counting in the store. */
export type RateCounters = (options: RateCounterOptions) => RateCounter;

/** The limiter that counts in this process's memory. */
export const memoryLimiter = ({ name, points, duration }: RateCounterOptions): RateLimiterMemory =>
  new RateLimiterMemory({ keyPrefix: name, points, duration });

export const memoryCounters: RateCounters = memoryLimiter;

interface Waiting {
  resolve: (counted: RateLimiterRes) => void;
  reject: (error: unknown) => void;
}

/**
 * A counter that sends one count per key at a time to a limiter that counts in a database: the points taken from the
 * key while that count is under way go to the database together in the next, as one consume of that many points. The
 * site-wide ceiling's key is taken by every form post, so under load its counts cost one round trip a batch, not one a
 * post. Each caller gets the count it would have got alone: the library adds a consume's points in one step and counts
 * refused points too, so n points at once leave the same count as n consumes in a row, and the kth of them saw the
 * count before the batch plus k.
 */
export function coalesced(limiter: RateLimiterAbstract, points: number): RateCounter {
  const waiting = new Map<string, Waiting[]>();
  const counting = new Set<string>();

  function settle(batch: readonly Waiting[], counted: RateLimiterRes): void {
    const before = counted.consumedPoints - batch.length;
    batch.forEach(({ resolve, reject }, index) => {
      const consumed = before + index + 1;
      const own = new RateLimiterRes(
        Math.max(0, points - consumed),
        counted.msBeforeNext,
        consumed,
        counted.isFirstInDuration && index === 0,
      );
      if (consumed > points) reject(own);
      else resolve(own);
    });
  }

  function send(key: string): void {
    const batch = waiting.get(key);
    if (!batch) return;
    waiting.delete(key);
    counting.add(key);
    limiter
      .consume(key, batch.length)
      .then(
        (counted) => settle(batch, counted),
        (refused: unknown) => {
          if (refused instanceof RateLimiterRes) settle(batch, refused);
          else for (const { reject } of batch) reject(refused);
        },
      )
      .finally(() => {
        counting.delete(key);
        send(key);
      });
  }

  return {
    consume: (key) =>
      new Promise<RateLimiterRes>((resolve, reject) => {
        const batch = waiting.get(key);
        if (batch) batch.push({ resolve, reject });
        else waiting.set(key, [{ resolve, reject }]);
        if (!counting.has(key)) send(key);
      }),
    get: (key) => limiter.get(key),
  };
}
