// When the lead database fails, a visitor is told to call (503), never left with a 500 or a false success.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { postForm, postJson, site, validLead } from '../../helpers/fixtures.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer();
  await server.store.close();
});
afterAll(() => server.stop());

describe('a lead database that cannot be written', () => {
  it('answers 503 with a way to call, in JSON and as a page, and logs the error without values', async () => {
    const json = await postJson(server.api, validLead);
    expect(json.status).toBe(503);
    expect(await json.json()).toEqual({
      error: expect.stringMatching(/could not be saved.*call us/),
      phone: site.phones.primary.display,
    });

    const page = await postForm(server.api, validLead);
    expect(page.status).toBe(503);
    const html = await page.text();
    expect(html).toContain('We could not take your request');
    expect(html).toContain('href="tel:');

    const errors = server.logs.filter((line) => line.msg === 'lead could not be stored');
    expect(errors).toHaveLength(2);
    expect(errors[0]?.storeError).toMatch(/closed/);
    expect(JSON.stringify(errors)).not.toContain(validLead.memberId);
    const health = await fetch(`${server.url}/healthz`);
    expect(health.status).toBe(503);
    expect(await health.json()).toEqual({ status: 'unavailable', alerts: null, release: null });
  });
});
