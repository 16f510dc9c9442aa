// The coalesced counter: one count per key at a time, those asked for meanwhile sent together, each caller answered
// with the count it would have got alone.
import { RateLimiterMemory, RateLimiterRes } from 'rate-limiter-flexible';
import { describe, expect, it } from 'vitest';
import { coalesced } from './rate-counters.ts';

/** A limiter in memory that answers each consume on the next turn of the event loop and records what it was asked. */
function slowMemory(points: number) {
  const limiter = new RateLimiterMemory({ keyPrefix: 'test', points, duration: 600 });
  const asked: [string, number][] = [];
  const consume = limiter.consume.bind(limiter);
  limiter.consume = (key, taken = 1) => {
    asked.push([String(key), taken]);
    return new Promise((resolve) => setImmediate(resolve)).then(() => consume(key, taken));
  };
  return { limiter, asked };
}

const take = (counter: ReturnType<typeof coalesced>, key: string) =>
  counter.consume(key).then(
    (counted) => ({ over: false, remaining: counted.remainingPoints, consumed: counted.consumedPoints }),
    (refused: unknown) => {
      if (!(refused instanceof RateLimiterRes)) throw refused;
      return { over: true, remaining: refused.remainingPoints, consumed: refused.consumedPoints };
    },
  );

describe('coalesced rate counts', () => {
  it('sends the first count at once and those asked for meanwhile together, answering each as if alone', async () => {
    const { limiter, asked } = slowMemory(3);
    const counter = coalesced(limiter, 3);
    const answers = await Promise.all(Array.from({ length: 5 }, () => take(counter, 'site')));
    expect(asked).toEqual([
      ['site', 1],
      ['site', 4],
    ]);
    expect(answers).toEqual([
      { over: false, remaining: 2, consumed: 1 },
      { over: false, remaining: 1, consumed: 2 },
      { over: false, remaining: 0, consumed: 3 },
      { over: true, remaining: 0, consumed: 4 },
      { over: true, remaining: 0, consumed: 5 },
    ]);
    // Another key is not held behind this one, and a later count goes alone again.
    expect(await take(counter, 'other')).toEqual({ over: false, remaining: 2, consumed: 1 });
    expect(await take(counter, 'site')).toEqual({ over: true, remaining: 0, consumed: 6 });
    expect(asked.slice(2)).toEqual([
      ['other', 1],
      ['site', 1],
    ]);
  });

  it('passes a failure of the count to every caller of the batch, and counts again afterwards', async () => {
    const { limiter } = slowMemory(3);
    const consume = limiter.consume.bind(limiter);
    let failing = true;
    limiter.consume = (key, taken) =>
      failing ? Promise.reject(new Error('database down')) : consume(key, taken);
    const counter = coalesced(limiter, 3);
    const failed = await Promise.allSettled([1, 2, 3].map(() => counter.consume('site')));
    expect(failed.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);
    failing = false;
    expect(await take(counter, 'site')).toEqual({ over: false, remaining: 2, consumed: 1 });
  });
});
