import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { trustProxyFrom } from '../../server/config.ts';
import { postForm, postJson, validLead } from './fixtures.ts';
import { startInProcessServer, type InProcessServer } from './in-process-server.ts';

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
    const before = server.store.listLeads().length;

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

    expect(server.store.listLeads().length).toBe(before);
    expect(server.logs).toContainEqual(
      expect.objectContaining({ level: 40, msg: 'form rate limit reached' }),
    );
    // A visitor's X-Forwarded-For while no proxy is trusted: a hint for whoever deploys, never an error.
    expect(server.logs).toContainEqual(
      expect.objectContaining({ level: 40, msg: expect.stringMatching(/X-Forwarded-For.*TRUST_PROXY/) }),
    );
    expect(server.logs.filter((line) => Number(line.level) >= 50)).toEqual([]);
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
      expect(proxied.store.listLeads()).toHaveLength(2);
    } finally {
      await proxied.stop();
    }
  });
});
