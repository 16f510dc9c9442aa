import { describe, expect, it } from 'vitest';
import { dueTime, promisedDurations, promiseWords } from './promise.ts';

describe('the promise as data', () => {
  it('says the value as a page does', () => {
    expect([15, 30, 60, 90, 1440, 2880, 4320].map(promiseWords)).toEqual([
      '15 minutes',
      '30 minutes',
      '1 hour',
      '90 minutes',
      '24 hours',
      '48 hours',
      '3 days',
    ]);
  });

  it('finds every "within" a text promises, as minutes', () => {
    expect(
      promisedDurations(
        'A counselor will call you within 15 minutes; benefits within 24 hours or less, or within an hour.',
      ),
    ).toEqual([
      { words: 'within 15 minutes', minutes: 15 },
      { words: 'within 24 hours', minutes: 1440 },
      { words: 'within an hour', minutes: 60 },
    ]);
    expect(promisedDurations('Call us any time.')).toEqual([]);
  });

  it('dates a lead by its promise', () => {
    expect(new Date(dueTime(Date.parse('2026-01-09T12:00:00Z'), 30)).toISOString()).toBe(
      '2026-01-09T12:30:00.000Z',
    );
  });
});
