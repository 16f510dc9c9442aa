import { describe, expect, it } from 'vitest';
import { age, dueLine, localDayStart, timeAgo } from './format.ts';

describe('inbox times', () => {
  it('says how long ago, in the largest whole unit', () => {
    const now = Date.parse('2026-03-03T12:00:00Z');
    expect(timeAgo('2026-03-03T11:59:40Z', now)).toBe('just now');
    expect(timeAgo('2026-03-03T11:48:00Z', now)).toBe('12 minutes ago');
    expect(timeAgo('2026-03-03T09:00:00Z', now)).toBe('3 hours ago');
    expect(timeAgo('2026-03-02T11:00:00Z', now)).toBe('yesterday');
  });

  it('gives an age in minutes, hours or days', () => {
    expect(age(59)).toBe('0 min');
    expect(age(3_599)).toBe('59 min');
    expect(age(7_200)).toBe('2 h');
    expect(age(200_000)).toBe('2 d');
  });

  it('turns a local date range into instants, the end day included', () => {
    const from = localDayStart('2026-03-03');
    const to = localDayStart('2026-03-03', true);
    expect(new Date(from ?? '').getDate()).toBe(3);
    expect(new Date(from ?? '').getHours()).toBe(0);
    expect(new Date(to ?? '').getDate()).toBe(4);
    expect(Date.parse(to ?? '') - Date.parse(from ?? '')).toBeGreaterThanOrEqual(23 * 3_600_000);
    expect(localDayStart('')).toBeUndefined();
    expect(localDayStart('March 3')).toBeUndefined();
  });

  it('says how long a lead has waited and when it is due, red once overdue, nothing once kept', () => {
    const now = Date.parse('2026-03-03T12:14:00Z');
    const lead = { createdAt: '2026-03-03T12:00:00Z', dueAt: '2026-03-03T12:15:00Z', due: true, attempts: 0 };
    expect(dueLine(lead, now)).toEqual({ text: 'waiting 14 min, due in 1 min', overdue: false });
    expect(dueLine(lead, now + 4 * 60_000)).toEqual({ text: 'overdue 3 min', overdue: true });
    expect(dueLine({ ...lead, attempts: 1, dueAt: '2026-03-03T12:24:00Z' }, now)).toEqual({
      text: 'callback due in 10 min',
      overdue: false,
    });
    expect(dueLine({ ...lead, due: false }, now)).toBeNull();
  });
});
