import { describe, expect, it } from 'vitest';
import { percentile } from './stats.ts';

describe('percentile', () => {
  it('reads percentiles by nearest rank', () => {
    const sorted = Array.from({ length: 100 }, (_, n) => n + 1);
    expect(percentile(sorted, 0.5)).toBe(50);
    expect(percentile(sorted, 0.99)).toBe(99);
    expect(percentile([7], 0.99)).toBe(7);
    expect(percentile([], 0.99)).toBe(0);
  });

  it('reads the middle sample of an odd count as its median', () => {
    expect(percentile([3, 8, 20, 41, 95], 0.5)).toBe(20);
  });
});
