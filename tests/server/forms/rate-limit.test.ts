import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxyFrom } from '../../../server/config.ts';
import { postForm, postJson, validLead } from '../../helpers/fixtures.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { expectNoPersonalData, valuesOf } from '../../helpers/personal-data.ts';

const LIMIT = 3;
let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({ rateLimit: LIMIT });
});
afterAll(() => server.stop());

describe('form rate limit', () => {
  it('counts every POST from an address and answers the one over FORM_RATE_LIMIT with 429 and Retry-After', async () => {
    // Invalid submissions count too: probing costs the same as sending.
    expect((await postJson(server.api, { fullName: '' }, { 'X-Forwarded-For': '203.0.113.9' })).status).toBe(
      400,
    );
    for (let n = 2; n <= LIMIT; n += 1) expect((await postJson(server.api, validLead)).status).toBe(201);
    const before = (await server.store.listLeads()).length;

    const refused = await postJson(server.api, validLead);
    expect(refused.status).toBe(429);
    const retryAfter = Number(refused.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(600);
    expect(refused.headers.get('ratelimit-policy')).toBe(`${LIMIT};w=600`);
    expect(await refused.json()).toEqual({ error: expect.stringMatching(/Too many requests.*call us/) });

    // Without JavaScript the visitor gets a page with the phone number, not JSON.
    const page = await postForm(server.api, validLead, { Referer: `${server.url}/services/medical-detox` });
    expect(page.status).toBe(429);
    expect(page.headers.get('retry-after')).toBeTruthy();
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    const html = await page.text();
    expect(html).toContain('Too many requests');
    expect(html).toContain('href="tel:');
    expect(html).toContain('href="/services/medical-detox"');

    expect((await server.store.listLeads()).length).toBe(before);
    expect(server.logs).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'form rate limit reached' }),
    );
    // X-Forwarded-For from a peer no setting trusts: an error for whoever deploys, naming what to set; the only one.
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([
      expect.objectContaining({
        msg: expect.stringMatching(/X-Forwarded-For.*TRUST_PROXY/),
        peer: 'loopback',
        setTrustProxy: 'loopback',
        requests: 1,
      }),
    ]);
    expectNoPersonalData(server.logs, [...valuesOf(validLead), '203.0.113.9']);
  });

  it('limits only the form API: pages are still served', async () => {
    expect((await fetch(`${server.url}/`)).status).toBe(200);
  });
});

describe('form rate limit behind a trusted proxy', () => {
  it('counts each visitor the proxy names apart, not the proxy itself', async () => {
    const proxied = await startInProcessServer({ rateLimit: 1, trustProxy: trustProxyFrom('loopback') });
    try {
      const from = (address: string) => ({ 'X-Forwarded-For': address });
      expect((await postJson(proxied.api, validLead, from('198.51.100.1'))).status).toBe(201);
      expect((await postJson(proxied.api, validLead, from('198.51.100.2'))).status).toBe(201);
      expect((await postJson(proxied.api, validLead, from('198.51.100.1'))).status).toBe(429);
      expect(await proxied.store.listLeads()).toHaveLength(2);
    } finally {
      await proxied.stop();
    }
  });
});

describe('site-wide form ceiling', () => {
  it('refuses every address once the site took FORM_GLOBAL_RATE_LIMIT posts, with 429, Retry-After and the phone', async () => {
    const ceiling = await startInProcessServer({
      rateLimit: 1,
      siteRateLimit: 3,
      trustProxy: trustProxyFrom('loopback'),
      logLevel: 'trace',
    });
    try {
      const from = (address: string) => ({ 'X-Forwarded-For': address });
      const lead = (n: number) => ({ ...validLead, fullName: `Visitor ${n} Example` });
      const leads = [0, 1, 2, 3, 4].map(lead);
      expect((await postJson(ceiling.api, lead(0), from('198.51.100.1'))).status).toBe(201);
      // Refused for its address, a post does not count toward the ceiling: one address cannot use it up.
      for (let n = 0; n < 3; n += 1)
        expect((await postJson(ceiling.api, lead(0), from('198.51.100.1'))).status).toBe(429);
      expect((await postJson(ceiling.api, lead(1), from('198.51.100.2'))).status).toBe(201);
      expect((await postJson(ceiling.api, lead(2), from('2001:db8:1::1'))).status).toBe(201);

      const refused = await postJson(ceiling.api, lead(3), from('2001:db8:2::1'));
      expect(refused.status).toBe(429);
      const retryAfter = Number(refused.headers.get('retry-after'));
      expect(retryAfter).toBeGreaterThan(0);
      expect(retryAfter).toBeLessThanOrEqual(600);
      expect(await refused.json()).toEqual({
        error: expect.stringMatching(/unusual number of requests.*call us/),
      });
      expect(refused.headers.get('content-security-policy')).toBeTruthy();

      const page = await postForm(ceiling.api, lead(4), from('2001:db8:3::1'));
      expect(page.status).toBe(429);
      expect(page.headers.get('retry-after')).toBeTruthy();
      expect(page.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await page.text();
      expect(html).toContain('unusual number of requests');
      expect(html).toContain('href="tel:');

      expect(await ceiling.store.listLeads()).toHaveLength(3);
      // Logged at warn once per window, however many posts it refuses, with no one's details.
      const logged = ceiling.logs.filter(
        (line) =>
          line.msg === 'site-wide form limit reached: every form post is refused until the window ends',
      );
      expect(logged).toEqual([expect.objectContaining({ level: 40, siteLimit: 3 })]);
      expectNoPersonalData(ceiling.logs, [...valuesOf(...leads), '198.51.100.1', '2001:db8:2::1']);
    } finally {
      await ceiling.stop();
    }
  });
});
