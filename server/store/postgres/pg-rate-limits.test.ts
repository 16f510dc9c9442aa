// Rate-limit counters in PostgreSQL: one count across instances, and, when the database fails or stalls, an answer
// from memory instead of a wait or an error.
import { randomBytes } from 'node:crypto';
import pg from 'pg';
import { RateLimiterRes } from 'rate-limiter-flexible';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startTestPostgres, type TestPostgres } from '../../../tests/helpers/postgres.ts';
import type { LeadStore } from '../contract/lead-store.ts';
import { openPostgresLeadStore } from './pg-lead-store.ts';
import { createCountWriter } from './pg-rate-limits.ts';

/** Resolves with the count, or with the refusal the library rejects with; rejects on anything else. */
const take = (limiter: ReturnType<LeadStore['rateCounters']>, key: string) =>
  limiter.consume(key).then(
    (counted) => ({ over: false, counted }),
    (refused: unknown) => {
      if (refused instanceof RateLimiterRes) return { over: true, counted: refused };
      throw refused;
    },
  );

describe('rate-limit counters on PostgreSQL', () => {
  let cluster: TestPostgres;
  let admin: pg.Pool;
  const key = randomBytes(32);
  const stores: LeadStore[] = [];
  // A query timeout far beyond the test's: only the counters' own bound can answer a stalled count in time.
  const open = async () => {
    const store = await openPostgresLeadStore(cluster.url, { key, queryTimeoutMs: 120_000 });
    stores.push(store);
    return store;
  };
  beforeAll(async () => {
    cluster = await startTestPostgres();
    admin = new pg.Pool({ connectionString: cluster.url, max: 2 });
    admin.on('error', () => undefined);
  });
  afterAll(async () => {
    for (const store of stores) await store.close().catch(() => undefined);
    await admin.end();
    cluster.remove();
  });

  it('holds one limit across instances, counted in the rate_limits table', async () => {
    const [one, two] = [await open(), await open()];
    const limits = [one, two].map((store) => store.rateCounters({ name: 'form', points: 3, duration: 600 }));
    const [a, b] = limits as [(typeof limits)[0], (typeof limits)[0]];
    const answers = [
      await take(a, '203.0.113.9'),
      await take(b, '203.0.113.9'),
      await take(a, '203.0.113.9'),
    ];
    expect(answers.map((answer) => answer.over)).toEqual([false, false, false]);
    expect(answers[2]?.counted.remainingPoints).toBe(0);
    expect((await take(b, '203.0.113.9')).over).toBe(true);
    // Another address, and another limit on the same address, count apart.
    expect((await take(b, '203.0.113.10')).over).toBe(false);
    const other = two.rateCounters({ name: 'form-site', points: 1, duration: 600 });
    expect((await take(other, '203.0.113.9')).over).toBe(false);
    const { rows } = await admin.query<{ key: string; points: number }>(
      'SELECT key, points FROM rate_limits ORDER BY key',
    );
    expect(rows).toEqual([
      { key: 'form-site:203.0.113.9', points: 1 },
      { key: 'form:203.0.113.10', points: 1 },
      { key: 'form:203.0.113.9', points: 4 },
    ]);
    // Unlogged: a count's commit waits for no fsync (a crash of the database forgives every count, as a restart does
    // beside SQLite).
    const table = await admin.query("SELECT relpersistence FROM pg_class WHERE relname = 'rate_limits'");
    expect(table.rows).toEqual([{ relpersistence: 'u' }]);
  });

  it('sends the counts asked for together as one statement, one row per key, each answered as if alone', async () => {
    const statements: unknown[][] = [];
    // Only `query` is used; this one also notes what it sends.
    const counting = {
      query: (config: pg.QueryConfig) => {
        statements.push(config.values ?? []);
        return admin.query(config);
      },
    } as unknown as Pick<pg.Pool, 'query'>;
    const writer = createCountWriter(counting);
    const expire = Date.now() + 600_000;
    const count = (key: string) => writer.write({ key, points: 1, expire });
    const answers = await Promise.all([...'aabaaba'].map((letter) => count(`batch:${letter}`)));
    expect(answers.map((answer) => answer.points)).toEqual([1, 2, 1, 3, 4, 2, 5]);
    expect(answers.every((answer) => answer.expire === expire)).toBe(true);
    expect(statements).toHaveLength(1);
    expect(statements[0]?.slice(0, 2)).toEqual([
      ['batch:a', 'batch:b'],
      [5, 2],
    ]);
    // The next count goes alone, on top of the batch's.
    expect(await count('batch:a')).toEqual({ points: 6, expire });
    const { rows } = await admin.query(
      "SELECT key, points FROM rate_limits WHERE key LIKE 'batch:%' ORDER BY key",
    );
    expect(rows).toEqual([
      { key: 'batch:a', points: 6 },
      { key: 'batch:b', points: 2 },
    ]);
    // A window that ended starts again with the batch's points.
    await admin.query("UPDATE rate_limits SET expire = 1 WHERE key = 'batch:b'");
    expect((await Promise.all([count('batch:b'), count('batch:b')])).map((answer) => answer.points)).toEqual([
      1, 2,
    ]);
  });

  it('holds the limit exactly under a burst on one key from two instances at once, counted in batches', async () => {
    const [one, two] = [await open(), await open()];
    const limits = [one, two].map((store) =>
      store.rateCounters({ name: 'burst', points: 10, duration: 600 }),
    );
    const answers = await Promise.all(
      limits.flatMap((limit) => Array.from({ length: 12 }, () => take(limit, 'site'))),
    );
    const allowed = answers.filter((answer) => !answer.over);
    // Ten taken, and each of the ten saw a count of its own, as if they had come one by one.
    expect(allowed.map((answer) => answer.counted.remainingPoints).sort((a, b) => a - b)).toEqual([
      0, 1, 2, 3, 4, 5, 6, 7, 8, 9,
    ]);
    expect(answers.filter((answer) => answer.over)).toHaveLength(14);
    const { rows } = await admin.query("SELECT points FROM rate_limits WHERE key = 'burst:site'");
    expect(rows).toEqual([{ points: 24 }]);
  });

  it('answers a count the database holds up from memory, without waiting for it', async () => {
    const store = await open();
    const limit = store.rateCounters({ name: 'stalled', points: 2, duration: 600 });
    const holder = await admin.connect();
    holder.on('error', () => undefined);
    try {
      // An uncommitted row on the same key: the library's upsert waits for this transaction, as on a stalled database.
      await holder.query('BEGIN');
      await holder.query("INSERT INTO rate_limits VALUES ('stalled:198.51.100.7', 0, $1)", [
        Date.now() + 600_000,
      ]);
      const answers = [
        await take(limit, '198.51.100.7'),
        await take(limit, '198.51.100.7'),
        await take(limit, '198.51.100.7'),
      ];
      // Answered while the lock is still held, and the limit still holds, counted in memory.
      expect(answers.map((answer) => answer.over)).toEqual([false, false, true]);
    } finally {
      await holder.query('ROLLBACK');
      holder.release();
    }
  }, 20_000);

  it('counts in memory while the database is down, and in the database again once it is back', async () => {
    const store = await open();
    const limit = store.rateCounters({ name: 'outage', points: 2, duration: 600 });
    cluster.kill();
    try {
      const answers = [
        await take(limit, '192.0.2.1'),
        await take(limit, '192.0.2.1'),
        await take(limit, '192.0.2.1'),
      ];
      expect(answers.map((answer) => answer.over)).toEqual([false, false, true]);
    } finally {
      cluster.start();
    }
    expect((await take(limit, '192.0.2.2')).over).toBe(false);
    const { rows } = await admin.query("SELECT points FROM rate_limits WHERE key = 'outage:192.0.2.2'");
    expect(rows).toEqual([{ points: 1 }]);
  }, 30_000);
});
