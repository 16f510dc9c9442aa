// The inbox app as the server hands it out: the shell for every client-side route with a fresh style nonce, hashed
// assets cached for good, the staff area's own headers, a plain 503 when the app is not built; and the live event stream.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { enrolled, sendLead } from './staff-client.ts';

let server: InProcessServer;
let unbuilt: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({ staff: { heartbeatMs: 50 } });
  unbuilt = await startInProcessServer({ staff: { built: false } });
});
afterAll(async () => {
  await server.stop();
  await unbuilt.stop();
});

describe('the inbox app', () => {
  it('serves its shell at /staff/ and every client route, with a fresh nonce in the page and the CSP', async () => {
    const nonces = new Set<string>();
    for (const path of ['/staff/', '/staff/leads/abc', '/staff/audit?before=3']) {
      const response = await fetch(`${server.url}${path}`);
      expect(response.status).toBe(200);
      expect(response.headers.get('content-type')).toMatch(/^text\/html/);
      const html = await response.text();
      const nonce = /<meta name="csp-nonce" content="([^"]+)">/.exec(html)?.[1] ?? '';
      expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
      expect(response.headers.get('content-security-policy')).toBe(
        `default-src 'none';script-src 'self';style-src 'self' 'nonce-${nonce}';img-src 'self' data:;` +
          "font-src 'self';connect-src 'self';manifest-src 'self';base-uri 'none';form-action 'self';frame-ancestors 'none'",
      );
      nonces.add(nonce);
    }
    expect(nonces.size).toBe(3);
  });

  it('sends the staff headers: never indexed, cached or framed; passkeys allowed for this origin only', async () => {
    for (const path of ['/staff/', '/staff/api/me']) {
      const { headers } = await fetch(`${server.url}${path}`);
      expect(headers.get('cache-control')).toBe('no-store');
      expect(headers.get('x-robots-tag')).toBe('noindex, nofollow');
      expect(headers.get('x-frame-options')).toBe('DENY');
      expect(headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
      const policy = headers.get('permissions-policy') ?? '';
      expect(policy).toContain('publickey-credentials-get=(self)');
      expect(policy).toContain('publickey-credentials-create=(self)');
      expect(policy).toContain('camera=()');
    }
    // The site keeps its own policy, passkeys off.
    const site = await fetch(`${server.url}/`);
    expect(site.headers.get('permissions-policy')).toContain('publickey-credentials-get=()');
  });

  it('serves hashed assets for good, redirects /staff to /staff/, and 404s a missing asset', async () => {
    const asset = await fetch(`${server.url}/staff/assets/inbox-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${server.url}/staff/assets/nope.js`)).status).toBe(404);
    const bare = await fetch(`${server.url}/staff`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/staff/']);
  });

  it('answers 503 with a plain message when the app is not built; the API still answers', async () => {
    const response = await fetch(`${unbuilt.url}/staff/`);
    expect(response.status).toBe(503);
    expect(await response.text()).toBe('The staff inbox is not built: run npm run build');
    expect((await fetch(`${unbuilt.url}/staff/api/me`)).status).toBe(401);
  });
});

describe('the event stream', () => {
  it('announces each new lead by id, beats, and ends at sign-out', async () => {
    const member = await enrolled(server, 'live@example.org');
    const response = await fetch(`${server.url}/staff/api/events`, {
      headers: { Cookie: member.cookie ?? '' },
    });
    expect(response.status).toBe(200);
    expect(response.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const reader = response.body!.pipeThrough(new TextDecoderStream()).getReader();
    let received = '';
    const readUntil = async (pattern: RegExp) => {
      while (!pattern.test(received)) {
        const { value, done } = await reader.read();
        if (done) return false;
        received += value;
      }
      return true;
    };
    const id = await sendLead(server);
    expect(await readUntil(new RegExp(`event: lead\\ndata: \\{"id":"${id}"\\}\\n\\n`))).toBe(true);
    expect(await readUntil(/: heartbeat\n\n/)).toBe(true);
    expect(received).not.toContain('Marquez');
    expect(await member.post('/signout')).toHaveProperty('status', 204);
    expect(await readUntil(/(?!)/)).toBe(false);
  });
});
