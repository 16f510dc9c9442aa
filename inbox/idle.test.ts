import { describe, expect, it } from 'vitest';
import { duration, endReason, endsOf, warningLead } from './idle.ts';

const clock = {
  idleExpiresAt: '2026-01-09T12:15:00.000Z',
  expiresAt: '2026-01-10T00:00:00.000Z',
  idleSeconds: 900,
  serverTime: '2026-01-09T12:00:00.000Z',
};

describe("the session's end, as the inbox counts it", () => {
  it("counts the server's ends in this browser's clock, whatever the two clocks say", () => {
    // This browser is 5 seconds behind the server.
    const received = Date.parse('2026-01-09T11:59:55.000Z');
    expect(endsOf(clock, received)).toEqual({
      idleEndAt: Date.parse('2026-01-09T12:14:55.000Z'),
      endAt: Date.parse('2026-01-09T23:59:55.000Z'),
      idleSeconds: 900,
    });
  });

  it('warns a minute before the idle end, sooner for a short limit', () => {
    expect(warningLead(900)).toBe(60_000);
    expect(warningLead(15)).toBe(5_000);
  });

  it('says why a refused session ended: away, at its time limit, or neither', () => {
    const ends = endsOf(clock, Date.parse(clock.serverTime));
    expect(endReason(ends, ends.idleEndAt + 1)).toEqual({ kind: 'idle', idleSeconds: 900 });
    // The server writes activity every 15 seconds at most: its idle end may come that much sooner.
    expect(endReason(ends, ends.idleEndAt - 10_000)).toEqual({ kind: 'idle', idleSeconds: 900 });
    expect(endReason(ends, ends.idleEndAt - 5 * 60_000)).toBeUndefined();
    expect(endReason(ends, ends.endAt)).toEqual({ kind: 'limit' });
    expect(endReason(undefined, ends.endAt)).toBeUndefined();
  });

  it('names a limit in words', () => {
    expect([900, 60, 15, 1, 90, 150].map(duration)).toEqual([
      '15 minutes',
      '1 minute',
      '15 seconds',
      '1 second',
      '90 seconds',
      '3 minutes',
    ]);
  });
});
