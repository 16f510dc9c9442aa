import { describe, expect, it } from 'vitest';
import { backoffMs, decideAfterFailure, parseRetryAfter, type RetryPolicy } from './retry-policy.ts';

const HOUR_MS = 3_600_000;
const policy = (random: () => number, overrides: Partial<RetryPolicy> = {}): RetryPolicy => ({
  baseMs: 2000,
  maxMs: 300_000,
  maxAgeMs: 72 * HOUR_MS,
  random,
  ...overrides,
});
const now = Date.parse('2026-01-08T12:00:00Z');
const failure = { error: 'HTTP 503', pendingSince: now - 60_000, failuresInARow: 0, now };

describe('retry policy', () => {
  it('reads Retry-After in seconds or as a date, within an hour', () => {
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 08 Jan 2026 12:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 07 Jan 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(3_600_000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('doubles the wait per failure, with jitter in the upper half, never beyond the cap', () => {
    expect(
      backoffMs(
        1,
        policy(() => 0),
      ),
    ).toBe(1000);
    expect(
      backoffMs(
        1,
        policy(() => 0.999),
      ),
    ).toBeCloseTo(2000, -1);
    expect(
      backoffMs(
        4,
        policy(() => 0.5),
      ),
    ).toBe(12_000);
    for (const random of [() => 0, () => 0.5, () => 0.999999])
      for (let n = 1; n <= 200; n += 1) {
        expect(backoffMs(n, policy(random))).toBeLessThanOrEqual(300_000);
        expect(backoffMs(n, policy(random, { baseMs: 20, maxMs: 200 }))).toBeLessThanOrEqual(200);
      }
    expect(
      backoffMs(
        20,
        policy(() => 0),
      ),
    ).toBe(150_000);
  });

  it('keeps retrying a failing alert, at most CHAT_RETRY_MAX_MS apart, however many tries failed', () => {
    for (const attempt of [1, 8, 9, 50, 10_000]) {
      const decision = decideAfterFailure(
        { ...failure, attempt, failuresInARow: attempt },
        policy(() => 0.999),
      );
      expect(decision).toMatchObject({ action: 'retry', counted: true });
      if (decision.action !== 'retry') continue;
      expect(decision.at - now).toBeLessThanOrEqual(300_000);
      expect(decision.pauseUntil - now).toBeLessThanOrEqual(300_000);
    }
  });

  it('marks an alert dead only once it has waited CHAT_ALERT_MAX_AGE_H, trying one last time at that moment', () => {
    const maxAgeMs = 72 * HOUR_MS;
    const pendingSince = now - maxAgeMs + 10_000;
    const last = decideAfterFailure(
      { ...failure, attempt: 900, pendingSince },
      policy(() => 0.999),
    );
    expect(last).toMatchObject({ action: 'retry', at: pendingSince + maxAgeMs });
    const at = pendingSince + maxAgeMs;
    expect(
      decideAfterFailure(
        { ...failure, attempt: 901, pendingSince, now: at },
        policy(() => 0.5),
      ),
    ).toMatchObject({
      action: 'dead',
    });
    // A first failure of an alert already older than that (the server was down for days) is its last.
    expect(
      decideAfterFailure(
        { ...failure, attempt: 1, pendingSince: now - 100 * HOUR_MS },
        policy(() => 0.5),
      ).action,
    ).toBe('dead');
  });

  it('pauses for a 429 Retry-After, without counting the try and without giving the alert up', () => {
    const limited = { ...failure, error: 'HTTP 429', retryAfterMs: 120_000 };
    expect(
      decideAfterFailure(
        { ...limited, attempt: 1 },
        policy(() => 0.5),
      ),
    ).toEqual({
      action: 'retry',
      at: now + 120_000,
      counted: false,
      pauseUntil: now + 120_000,
    });
    // Past its age, a rate-limited alert still waits: a 429 is the webhook working, asking for a pause.
    const old = { ...limited, attempt: 3, pendingSince: now - 100 * HOUR_MS };
    expect(
      decideAfterFailure(
        old,
        policy(() => 0.5),
      ),
    ).toMatchObject({ action: 'retry', counted: false });
    // 'Retry-After: 0' on every call cannot spin: the pause still grows with the webhook's failures in a row.
    const zero = decideAfterFailure(
      { ...limited, retryAfterMs: 0, attempt: 1, failuresInARow: 5 },
      policy(() => 0),
    );
    expect(zero).toMatchObject({ counted: false, at: now + 32_000, pauseUntil: now + 32_000 });
  });

  it('counts a 429 without Retry-After as a failure', () => {
    const decision = decideAfterFailure(
      { ...failure, error: 'HTTP 429', attempt: 2 },
      policy(() => 0),
    );
    expect(decision).toMatchObject({ action: 'retry', counted: true, at: now + 2000 });
  });
});
