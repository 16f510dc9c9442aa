// The editor online's pages (/staff/edit/): only for a signed-in editor or admin (signed out: to the sign-in; other
// roles: 403), each with a fresh style nonce; the staff CSP with only the editor's frame-src 'self' added, and only its
// preview page framable, by its own origin; every other staff page still unframable; hashed assets kept for good.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { member } from '../content-staff/content-client.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer({});
});
afterAll(() => server.stop());

const nonceOf = (html: string) => /<meta name="csp-nonce" content="([^"]+)">/.exec(html)?.[1] ?? '';

describe('the editor online', () => {
  it('sends a signed-out visitor to sign in, and /staff/edit to /staff/edit/', async () => {
    const out = await fetch(`${server.url}/staff/edit/`, { redirect: 'manual' });
    expect([out.status, out.headers.get('location')]).toEqual([303, '/staff/']);
    const bare = await fetch(`${server.url}/staff/edit?change=abc`, { redirect: 'manual' });
    expect([bare.status, bare.headers.get('location')]).toEqual([301, '/staff/edit/?change=abc']);
  });

  it('refuses a member without the editor role (403)', async () => {
    const desk = await member(server, 'desk@example.org', ['admissions'], Date.now());
    const reviewer = await member(server, 'rev@example.org', ['reviewer'], Date.now());
    for (const client of [desk, reviewer]) {
      const response = await fetch(`${server.url}/staff/edit/`, { headers: { Cookie: client.cookie ?? '' } });
      expect(response.status).toBe(403);
      expect(await response.text()).toContain('editor role');
    }
  });

  it('serves an editor the editor and its preview, with a nonce and the one framing each needs', async () => {
    const editor = await member(server, 'ed@example.org', ['editor'], Date.now());
    const headers = { Cookie: editor.cookie ?? '' };
    const page = await fetch(`${server.url}/staff/edit/?change=abc`, { headers });
    expect(page.status).toBe(200);
    const html = await page.text();
    expect(html).toContain('<title>index.html</title>');
    const nonce = nonceOf(html);
    expect(nonce).toMatch(/^[A-Za-z0-9+/]{22}==$/);
    expect(page.headers.get('content-security-policy')).toBe(
      `default-src 'none';script-src 'self';style-src 'self' 'nonce-${nonce}';img-src 'self' data:;` +
        "font-src 'self';connect-src 'self';manifest-src 'self';base-uri 'none';form-action 'self';" +
        "frame-ancestors 'none';frame-src 'self'",
    );
    expect(page.headers.get('x-frame-options')).toBe('DENY');

    const preview = await fetch(`${server.url}/staff/edit/preview.html?path=%2F`, { headers });
    expect(preview.status).toBe(200);
    expect(await preview.text()).toContain('<title>preview.html</title>');
    expect(preview.headers.get('content-security-policy')).toContain("frame-ancestors 'self'");
    expect(preview.headers.get('content-security-policy')).not.toContain('frame-src');
    expect(preview.headers.get('x-frame-options')).toBe('SAMEORIGIN');

    // The inbox stays unframable.
    const inbox = await fetch(`${server.url}/staff/`, { headers });
    expect(inbox.headers.get('content-security-policy')).toContain("frame-ancestors 'none'");
    expect(inbox.headers.get('x-frame-options')).toBe('DENY');

    const asset = await fetch(`${server.url}/staff/edit/assets/editor-abc123.js`);
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    expect((await fetch(`${server.url}/staff/edit/assets/nope.js`)).status).toBe(404);
  });
});
