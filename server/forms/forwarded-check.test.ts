import type { IncomingMessage } from 'node:http';
import { describe, expect, it } from 'vitest';
import { createLogger } from '../logger.ts';
import { forwardedCheck, REPORT_EVERY_MS } from './forwarded-check.ts';

function setUp(trustProxy: string | boolean = false) {
  const lines: Record<string, unknown>[] = [];
  const logger = createLogger({
    level: 'trace',
    destination: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
  });
  let time = 1_000_000;
  const check = forwardedCheck({ trustProxy, logger, now: () => time });
  const request = (remoteAddress: string, forwarded?: string) =>
    check({
      headers: forwarded === undefined ? {} : { 'x-forwarded-for': forwarded },
      socket: { remoteAddress },
    } as unknown as IncomingMessage);
  return { lines, request, advance: (ms: number) => (time += ms) };
}

describe('forwarded headers from a peer that is not trusted', () => {
  it('is an error at the first request and every ten minutes while it lasts, with the count and what to set', () => {
    const { lines, request, advance } = setUp();
    request('127.0.0.1', '203.0.113.9');
    expect(lines).toEqual([
      expect.objectContaining({ level: 50, peer: 'loopback', setTrustProxy: 'loopback', requests: 1 }),
    ]);
    for (let n = 0; n < 5; n += 1) request('::ffff:127.0.0.1', '203.0.113.9');
    advance(REPORT_EVERY_MS - 1);
    request('127.0.0.1', '203.0.113.9');
    expect(lines).toHaveLength(1);
    advance(1);
    request('127.0.0.1', '203.0.113.9');
    expect(lines).toHaveLength(2);
    expect(lines[1]).toMatchObject({ level: 50, requests: 7 });
    expect(JSON.stringify(lines)).not.toContain('203.0.113.9');
  });

  it('names a proxy on a private network, but never a public peer, which may be a visitor', () => {
    const { lines, request, advance } = setUp();
    request('10.1.2.3', 'x');
    advance(REPORT_EVERY_MS);
    request('198.51.100.7', 'x');
    expect(lines[0]).toMatchObject({ peer: 'private', peerAddress: '10.1.2.3', setTrustProxy: '10.1.2.3' });
    expect(lines[1]).toMatchObject({ level: 50 });
    expect(lines[1]).not.toHaveProperty('peerAddress');
    expect(JSON.stringify(lines[1])).not.toContain('198.51.100.7');
  });

  it('stays quiet without the header, and for a trusted proxy', () => {
    const { lines, request } = setUp('loopback');
    request('127.0.0.1', '203.0.113.9');
    request('10.0.0.1');
    expect(lines).toEqual([]);
  });
});
