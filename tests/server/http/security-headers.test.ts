// The security headers of the real server on the real build (dist/client, built by `npm test` before the tests): on a
// page, an asset and the not-found page. Each page's Content-Security-Policy must allow exactly the inline scripts the
// page carries, computed here from the HTML the server sends.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../helpers/site-under-test.ts';
import { addressOf, close, listen } from '../../../server/http/http-server.ts';
import { security } from '../../../server/http/security.ts';

const ASSETS_DIR = join(import.meta.dirname, '..', '..', '..', 'dist', 'client', 'assets');

let running: RunningSite;
beforeAll(async () => {
  // Behind a proxy on this machine, as in production behind a TLS-terminating load balancer: X-Forwarded-Proto from
  // 127.0.0.1 is believed, so HSTS can be checked without TLS in the test.
  running = await startSite({ TRUST_PROXY: 'loopback' });
});
afterAll(async () => {
  await running?.stop();
});

/** The policy's directives by name, each with its list of sources. */
function directives(policy: string | null): Map<string, string[]> {
  expect(policy, 'Content-Security-Policy header').toBeTruthy();
  return new Map(
    (policy ?? '')
      .split(';')
      .map((directive) => directive.trim().split(/\s+/))
      .filter((parts): parts is [string, ...string[]] => Boolean(parts[0]))
      .map(([name, ...sources]) => [name, sources]),
  );
}

/** Hash sources of the HTML's inline scripts, computed independently of the build's own code. */
function inlineScriptHashes(html: string): string[] {
  const hashes: string[] = [];
  for (const match of html.matchAll(/<script([^>]*)>([\s\S]*?)<\/script>/g)) {
    if (/\ssrc=/.test(match[1] ?? '')) continue;
    hashes.push(
      `'sha256-${createHash('sha256')
        .update(match[2] ?? '')
        .digest('base64')}'`,
    );
  }
  return hashes;
}

function expectCommonHeaders(response: Response, what: string): void {
  const header = (name: string) => response.headers.get(name);
  expect(header('x-content-type-options'), what).toBe('nosniff');
  expect(header('referrer-policy'), what).toBe('strict-origin-when-cross-origin');
  expect(header('cross-origin-opener-policy'), what).toBe('same-origin');
  expect(header('x-frame-options'), what).toBe('DENY');
  expect(header('x-powered-by'), what).toBeNull();
  const permissions = header('permissions-policy') ?? '';
  for (const feature of ['camera', 'microphone', 'geolocation', 'payment'])
    expect(permissions, what).toContain(`${feature}=()`);
  // Plain HTTP, and no proxy saying otherwise: no HSTS (a browser would ignore it, and it must never pin HTTPS on an
  // origin that only speaks HTTP).
  expect(header('strict-transport-security'), what).toBeNull();

  const policy = directives(header('content-security-policy'));
  expect(policy.get('default-src'), what).toEqual(["'self'"]);
  expect(policy.get('script-src')?.[0], what).toBe("'self'");
  expect(policy.get('script-src'), what).not.toContain("'unsafe-inline'");
  expect(policy.get('script-src'), what).not.toContain("'unsafe-eval'");
  expect(policy.get('script-src-attr'), what).toEqual(["'none'"]);
  expect(policy.get('style-src'), what).toEqual(["'self'", "'unsafe-inline'"]);
  expect(policy.get('frame-ancestors'), what).toEqual(["'none'"]);
  expect(policy.get('object-src'), what).toEqual(["'none'"]);
  expect(policy.get('base-uri'), what).toEqual(["'self'"]);
  expect(policy.get('form-action'), what).toEqual(["'self'"]);
  expect(policy.get('connect-src'), what).toEqual(["'self'"]);
  expect(policy.get('img-src'), what).toEqual(["'self'", 'data:']);
}

describe('security headers', () => {
  it.each(['/', '/services/medical-detox', '/privacy-policy'])(
    'page %s: every header, and a policy that allows exactly its own inline scripts',
    async (path) => {
      const response = await fetch(`${running.url}${path}`);
      expect(response.status).toBe(200);
      expectCommonHeaders(response, path);
      const html = await response.text();
      const hashes = inlineScriptHashes(html);
      // Mantine's colour-scheme script and the router's hydration scripts at least.
      expect(hashes.length).toBeGreaterThanOrEqual(2);
      const scriptSources =
        directives(response.headers.get('content-security-policy')).get('script-src') ?? [];
      expect(scriptSources.slice(1).sort()).toEqual([...new Set(hashes)].sort());
    },
  );

  it('the not-found page: every header, and its own inline scripts allowed', async () => {
    const response = await fetch(`${running.url}/no-such-page`);
    expect(response.status).toBe(404);
    expectCommonHeaders(response, '404');
    const hashes = inlineScriptHashes(await response.text());
    expect(hashes.length).toBeGreaterThanOrEqual(2);
    const scriptSources = directives(response.headers.get('content-security-policy')).get('script-src') ?? [];
    expect(scriptSources.slice(1).sort()).toEqual([...new Set(hashes)].sort());
  });

  it('an asset: every header, and a policy that allows no inline script', async () => {
    const script = readdirSync(ASSETS_DIR).find((file) => file.endsWith('.js'));
    expect(script).toBeDefined();
    const response = await fetch(`${running.url}/assets/${script}`);
    expect(response.status).toBe(200);
    expectCommonHeaders(response, 'asset');
    expect(directives(response.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
  });

  it('other files (robots.txt) get the headers too', async () => {
    const response = await fetch(`${running.url}/robots.txt`);
    expect(response.status).toBe(200);
    expectCommonHeaders(response, 'robots.txt');
  });

  it('form API answers (taken before Express): every header, a policy that allows no script, and HSTS over HTTPS', async () => {
    const api = `${running.url}/api/forms/insurance-verification`;
    const post = (headers: Record<string, string>) =>
      fetch(api, {
        method: 'POST',
        headers: { 'Content-Type': 'application/json', Origin: running.url, ...headers },
        body: '{}',
      });
    const invalid = await post({});
    expect(invalid.status).toBe(400);
    expectCommonHeaders(invalid, 'form API');
    expect(directives(invalid.headers.get('content-security-policy')).get('script-src')).toEqual(["'self'"]);
    const secure = await post({ 'X-Forwarded-Proto': 'https' });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
  });

  it('never serves the build’s hash file or other dot-files', async () => {
    for (const path of ['/.csp.json', '/.vite/manifest.json', '/%2Ecsp.json'])
      expect((await fetch(`${running.url}${path}`)).status, path).toBe(404);
  });

  it('sends HSTS only when a trusted proxy says the request came over HTTPS', async () => {
    const secure = await fetch(`${running.url}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
    expect(secure.headers.get('strict-transport-security')).toBe('max-age=31536000; includeSubDomains');
    const plain = await fetch(`${running.url}/`, { headers: { 'X-Forwarded-Proto': 'http' } });
    expect(plain.headers.get('strict-transport-security')).toBeNull();
  });
});

describe('TRUST_PROXY', () => {
  it('unset: X-Forwarded-Proto is not believed, so no HSTS over plain HTTP', async () => {
    const app = express();
    app.use(security({ trustProxy: false }));
    app.get('/', (_req, res) => void res.send('ok'));
    const server = await listen(app, 0, '127.0.0.1');
    try {
      const response = await fetch(`${addressOf(server)}/`, { headers: { 'X-Forwarded-Proto': 'https' } });
      expect(response.headers.get('strict-transport-security')).toBeNull();
      expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    } finally {
      await close(server);
    }
  });
});
