// Rate-limit counters in PostgreSQL, shared by every instance: rate-limiter-flexible's RateLimiterPostgres on the
// store's pool, in the table our migration makes (pg-schema.ts), so the library never creates one itself (its own
// creation runs unawaited when a limiter is made, and a database down at that moment would be an unhandled rejection).
// A count must never make a visitor wait on the database or turn into a 500: a query that fails, or has not answered
// within RATE_LIMIT_TIMEOUT_MS, is counted in this process's memory instead (the library's insurance limiter), so
// during an outage each instance holds the limit on its own.
//
// Each form post takes two counts (its address's, and the site's), so one statement per count would be most of a
// lead's round trips to the database. The limiter's store step (`_upsert`, the library's extension point for a store)
// is therefore batched: the counts asked for while one statement is under way go to the database together in the next,
// one row per key with the points of all its counts, and each count is answered as if it had been sent alone.
import type pg from 'pg';
import { RateLimiterPostgres, RLWrapperTimeouts } from 'rate-limiter-flexible';
import { createBatchWriter, type BatchWriter, type Outcome } from '../shared/group-commit.ts';
import type { RateCounters } from '../contract/rate-counters.ts';
import { memoryCounters } from '../shared/memory-counters.ts';
import { timed } from './pg-batch-insert.ts';

export const RATE_LIMIT_TABLE = 'rate_limits';
/** Far above a healthy database's answer, far below the wait a visitor notices. */
export const RATE_LIMIT_TIMEOUT_MS = 300;
/** Counters whose window ended this long ago are deleted (they hold network addresses). */
const KEEP_EXPIRED_MS = 60 * 60 * 1000;
const CLEAR_EVERY_MS = 5 * 60 * 1000;
/** A batch the database has not answered by then is given up, so the next can go (its counts went to memory long ago). */
const BATCH_TIMEOUT_MS = 2000;
/** Counts waiting beyond this are refused at once, and so counted in memory: the database is not keeping up. */
const MAX_WAITING = 10_000;

/** One count as the library asks for it: `points` more on `key`, whose window, if it starts now, ends at `expire`. */
export interface Count {
  key: string;
  points: number;
  expire: number | null;
}
/** The row as the library reads it after a count: the key's points, and when its window ends. */
export interface CountedRow {
  points: number;
  expire: number | null;
}

// The library's own upsert, over arrays: a window that ended starts again with these points. Keys in one order
// everywhere, so two instances' batches that share keys wait for each other instead of deadlocking.
const UPSERT_COUNTS = `
INSERT INTO ${RATE_LIMIT_TABLE} (key, points, expire)
SELECT key, points, expire FROM unnest($1::text[], $2::int[], $3::bigint[]) AS t(key, points, expire) ORDER BY key
ON CONFLICT (key) DO UPDATE SET
  points = CASE WHEN ${RATE_LIMIT_TABLE}.expire <= $4 THEN excluded.points
                ELSE ${RATE_LIMIT_TABLE}.points + excluded.points END,
  expire = CASE WHEN ${RATE_LIMIT_TABLE}.expire <= $4 THEN excluded.expire ELSE ${RATE_LIMIT_TABLE}.expire END
RETURNING key, points, expire`;

/**
 * Sends counts in batches, one statement at a time. The kth count of a key in a batch is answered with the key's
 * points before the batch plus the points of its first k counts: what it would have read had they gone one by one.
 */
export function createCountWriter(pool: Pick<pg.Pool, 'query'>): BatchWriter<Count, CountedRow> {
  return createBatchWriter<Count, CountedRow>(
    async (counts) => {
      const byKey = new Map<string, { points: number; expire: number | null }>();
      for (const { key, points, expire } of counts) {
        const sum = byKey.get(key);
        if (sum) sum.points += points;
        else byKey.set(key, { points, expire });
      }
      const keys = [...byKey.keys()];
      const sums = [...byKey.values()];
      const { rows } = await pool.query<{ key: string; points: number; expire: string | null }>(
        timed(
          UPSERT_COUNTS,
          [keys, sums.map((sum) => sum.points), sums.map((sum) => sum.expire), Date.now()],
          BATCH_TIMEOUT_MS,
          'rate-counts',
        ),
      );
      const after = new Map(rows.map((row) => [row.key, row]));
      const counted = new Map<string, number>();
      return counts.map(({ key, points }): Outcome<CountedRow> => {
        const row = after.get(key);
        if (!row) return { ok: false, error: new Error(`no count came back for ${key}`) };
        const upToThis = (counted.get(key) ?? 0) + points;
        counted.set(key, upToThis);
        const before = row.points - (byKey.get(key)?.points ?? 0);
        return {
          ok: true,
          value: { points: before + upToThis, expire: row.expire === null ? null : Number(row.expire) },
        };
      });
    },
    { maxBatch: 1000, maxQueued: MAX_WAITING },
  );
}

/** RateLimiterPostgres whose counts go through `writer`; reading and deleting a key are the library's own. */
class BatchedRateLimiterPostgres extends RateLimiterPostgres {
  constructor(
    options: ConstructorParameters<typeof RateLimiterPostgres>[0],
    private readonly writer: BatchWriter<Count, CountedRow>,
  ) {
    super(options);
  }

  /**
   * The library's store step for consume, penalty and reward, in the shape its `_getRateLimiterRes` reads. A forced
   * expiry (the library's block and set, which these limits never use) is refused, so it cannot pass unnoticed.
   */
  _upsert(
    key: string,
    points: number,
    msDuration: number,
    forceExpire = false,
  ): Promise<{ rows: CountedRow[] }> {
    if (forceExpire) return Promise.reject(new Error('rate limits here never block or set a key'));
    const expire = msDuration > 0 ? Date.now() + msDuration : null;
    return this.writer.write({ key, points, expire }).then((row) => ({ rows: [row] }));
  }
}

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
  const writer = createCountWriter(pool);
  return {
    counters(options) {
      const insuranceLimiter = memoryCounters(options);
      const shared = new BatchedRateLimiterPostgres(
        {
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
        },
        writer,
      );
      return new RLWrapperTimeouts({ limiter: shared, timeoutMs, insuranceLimiter });
    },
    stop: () => clearInterval(clear),
  };
}
