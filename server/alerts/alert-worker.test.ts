import { describe, expect, it } from 'vitest';
import { backoffMs, parseRetryAfter } from './alert-worker.ts';

describe('alert worker timing rules', () => {
  it('reads Retry-After in seconds or as a date, within an hour', () => {
    const now = Date.parse('2026-01-08T00:00:00Z');
    expect(parseRetryAfter('30', now)).toBe(30_000);
    expect(parseRetryAfter('Thu, 08 Jan 2026 00:01:00 GMT', now)).toBe(60_000);
    expect(parseRetryAfter('Wed, 07 Jan 2026 00:00:00 GMT', now)).toBe(0);
    expect(parseRetryAfter('999999', now)).toBe(3_600_000);
    expect(parseRetryAfter(null, now)).toBeUndefined();
    expect(parseRetryAfter('soon', now)).toBeUndefined();
  });

  it('doubles the delay per attempt, with jitter in the upper half, up to the cap', () => {
    expect(backoffMs(1, 2000, 300_000, () => 0)).toBe(1000);
    expect(backoffMs(1, 2000, 300_000, () => 0.999)).toBeCloseTo(2000, -1);
    expect(backoffMs(4, 2000, 300_000, () => 0.5)).toBe(12_000);
    expect(backoffMs(20, 2000, 300_000, () => 1)).toBe(300_000);
  });
});
