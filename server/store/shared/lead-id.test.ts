import { describe, expect, it } from 'vitest';
import { leadId } from './lead-id.ts';

describe('lead id', () => {
  it('is a version 7 UUID whose first 48 bits are the time', () => {
    const id = leadId(Date.parse('2026-01-08T17:30:00Z'));
    expect(id).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(parseInt(id.replace(/-/g, '').slice(0, 12), 16)).toBe(Date.parse('2026-01-08T17:30:00Z'));
  });

  it('sorts by time and never repeats', () => {
    const ids = Array.from({ length: 1000 }, (_, n) => leadId(1_700_000_000_000 + n));
    expect([...ids].sort()).toEqual(ids);
    expect(new Set(Array.from({ length: 1000 }, () => leadId(1)))).toHaveProperty('size', 1000);
  });
});
