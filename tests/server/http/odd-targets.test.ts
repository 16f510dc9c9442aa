// Request targets no browser sends but anyone can: the absolute form HTTP/1.1 allows (`GET http://evil.example/blog`),
// two slashes or a backslash where a host could start, encoded dots and NUL, and very long URLs. Whatever the target,
// every Location stays on this site and keeps the query, nothing answers 5xx, and the log holds no query values.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { SECURITY_HEADER_NAMES } from '../../helpers/fixtures.ts';
import { expectNoPersonalData } from '../../helpers/personal-data.ts';
import { rawGet, type RawAnswer } from '../../helpers/http.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({ logLevel: 'trace' });
});
afterAll(() => server.stop());

/** A Location that a browser resolves to this server: one leading slash, then no slash or backslash. */
function expectOnSite(location: string, target: string): void {
  expect(location, target).toMatch(/^\/(?![/\\])/);
  const base = `http://127.0.0.1:${new URL(server.url).port}/`;
  expect(new URL(location, base).origin, target).toBe(new URL(base).origin);
}

/** The checks every answer to an odd target must pass; returns it for more specific ones. */
async function get(target: string): Promise<RawAnswer> {
  const answer = await rawGet(server.url, target);
  const label = target.slice(0, 80);
  expect(answer.status, label).toBeGreaterThanOrEqual(200);
  expect(answer.status, label).toBeLessThan(500);
  if (answer.headers.location !== undefined) expectOnSite(answer.headers.location, label);
  // Node's own parser refuses an oversized head before the app runs: that answer has no headers of ours.
  if (answer.status !== 431 && answer.status !== 414)
    for (const header of SECURITY_HEADER_NAMES)
      expect(answer.headers, `${label}: ${header}`).toHaveProperty(header);
  expect(answer.body, label).not.toContain('do not serve');
  return answer;
}

describe('odd request targets', () => {
  it('absolute form: old addresses and other spellings redirect on this site, keeping the query', async () => {
    const cases: [string, string][] = [
      ['http://evil.example/blog', '/'],
      ['http://evil.example/blog?x=1', '/?x=1'],
      ['http://evil.example/blog/?next=http://evil.example', '/?next=http://evil.example'],
      ['HTTP://EVIL.EXAMPLE/blog', '/'],
      ['https://evil.example:8443/detox?utm_source=a', '/services/medical-detox?utm_source=a'],
      ['http://evil.example/addictions?x=1', '/?x=1#addictions'],
      ['http://evil.example/services/medical-detox/', '/services/medical-detox'],
      ['http://evil.example/services/medical-detox.html?q=2', '/services/medical-detox?q=2'],
      ['http://user@evil.example/blog', '/'],
    ];
    for (const [target, location] of cases) {
      const answer = await get(target);
      expect(answer.status, target).toBe(301);
      expect(answer.headers.location, target).toBe(location);
    }
  });

  it('absolute form without a path, or to a page: answered here, never redirected elsewhere', async () => {
    for (const target of ['http://evil.example', 'http://evil.example?x=1', 'http://evil.example/'])
      expect([200, 404], target).toContain((await get(target)).status);
    expect((await get('http://evil.example/services/medical-detox')).status).toBe(200);
  });

  it('two slashes or a backslash where a host could start: never a Location off the site', async () => {
    const targets = [
      '//evil.example',
      '//evil.example/',
      '//evil.example/blog',
      '///evil.example/',
      '////evil.example//',
      '/\\evil.example',
      '/\\evil.example/',
      '/\\/evil.example/',
      '/%2F%2Fevil.example/',
      '/%2f/evil.example/',
      '/%5Cevil.example/',
      '/%5C%5Cevil.example',
      '/blog//evil.example',
      '//blog',
      '//blog/',
      '/\\blog',
      '//services/medical-detox/',
      '/services//medical-detox/',
      '/x/..//evil.example',
      '/.//evil.example/',
    ];
    for (const target of targets) {
      const answer = await get(target);
      expect([301, 404], target).toContain(answer.status);
    }
    // Kept as a query of this site's page, which is harmless.
    const query = await get('/blog?//evil.example');
    expect(query.headers.location).toBe('/?//evil.example');
    expect((await get('/blog/?\\evil.example')).headers.location).toBe('/?\\evil.example');
  });

  it('encoded dots and NUL: 404 or the page, never a file outside the build, never 5xx', async () => {
    const targets = [
      '/%2e%2e/',
      '/%2e%2e/secret.txt',
      '/%2E%2E/%2E%2E/secret.txt',
      '/assets/%2e%2e/%2e%2e/secret.txt',
      '/..%2f..%2fsecret.txt',
      '/..%5c..%5csecret.txt',
      '/services/medical-detox/%2e%2e/',
      '/services/%2e%2e/services/medical-detox',
      '/%00',
      '/blog%00',
      '/%00/blog',
      '/blog/%00',
      '/services/medical-detox%00',
      '/services/medical-detox/%00',
      '/services/medical-detox.html%00',
      '/%c0%ae%c0%ae/secret.txt',
      '/%',
      '/%zz',
      '/blog%',
      '/%ED%A0%80',
    ];
    for (const target of targets) expect([301, 400, 404], target).toContain((await get(target)).status);
  });

  it('very long URLs: 404, a redirect on this site, or 431 from the HTTP parser', async () => {
    expect((await get(`/${'a'.repeat(10_000)}`)).status).toBe(404);
    const slashes = await get(`/blog${'/'.repeat(10_000)}`);
    expect(slashes.status).toBe(301);
    expect(slashes.headers.location).toBe('/');
    const query = await get(`/blog?${'q'.repeat(10_000)}`);
    expect(query.status).toBe(301);
    expect(query.headers.location).toBe(`/?${'q'.repeat(10_000)}`);
    expect((await get(`//${'evil.example/'.repeat(800)}`)).status).toBe(404);
    for (const target of [
      `/${'a'.repeat(100_000)}`,
      `/blog?${'q'.repeat(100_000)}`,
      `http://${'e'.repeat(100_000)}/blog`,
    ])
      expect([414, 431], target.slice(0, 20)).toContain((await get(target)).status);
  });

  it('logs no query value and no error, at any level', async () => {
    const sent = ['Jane Roe', '(555) 010-7788', 'jane.roe@example.com', '1979-11-02'];
    const query = sent.map((value, n) => `v${n}=${encodeURIComponent(value)}`).join('&');
    for (const target of [
      `/blog?${query}`,
      `/nowhere?${query}`,
      `http://evil.example/blog?${query}`,
      `//evil.example/?${query}`,
    ])
      await get(target);
    expectNoPersonalData(server.logs, sent);
    expect(server.logs.some((line) => line.level === 10 || line.level === 20 || line.level === 30)).toBe(
      true,
    );
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
  });
});
