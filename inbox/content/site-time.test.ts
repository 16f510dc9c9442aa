// A schedule's time on the site's clock: a wall-clock time in SITE_TIMEZONE is the instant it names there (whatever
// the zone this process runs in), across both clock changes, and reads back with the zone named.
import { describe, expect, it } from 'vitest';
import { instantOf, timeIn, wallTimeOf, zoneName } from './site-time.ts';

const LA = 'America/Los_Angeles';

describe('times on the site clock', () => {
  it('turns 9:00 AM Pacific time into its instant, in winter and in summer', () => {
    expect(instantOf('2026-12-01T09:00', LA)).toEqual({ ok: true, at: Date.parse('2026-12-01T17:00:00Z') });
    expect(instantOf('2026-07-01T09:00', LA)).toEqual({ ok: true, at: Date.parse('2026-07-01T16:00:00Z') });
    expect(instantOf('2026-12-01T09:00', 'Europe/Berlin')).toEqual({
      ok: true,
      at: Date.parse('2026-12-01T08:00:00Z'),
    });
  });

  it('refuses a time the spring change skips, and takes the first of one the fall change repeats', () => {
    expect(instantOf('2026-03-08T02:30', LA)).toEqual({ ok: false, problem: 'skipped' });
    expect(instantOf('2026-11-01T01:30', LA)).toEqual({ ok: true, at: Date.parse('2026-11-01T08:30:00Z') });
    expect(instantOf('tomorrow', LA)).toEqual({ ok: false, problem: 'format' });
  });

  it('reads an instant back on the site clock, the zone named', () => {
    expect(wallTimeOf(Date.parse('2026-12-01T17:00:00Z'), LA)).toBe('2026-12-01T09:00');
    expect(timeIn('2026-12-01T17:00:00.000Z', LA)).toBe('Dec 1, 2026, 9:00 AM Pacific time');
    expect(zoneName('Europe/Berlin')).toBe('Central European time');
  });
});
