import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import express from 'express';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { PAGES, writeClientDir } from '../../helpers/fixtures.ts';
import { startInProcessServer, type InProcessServer } from '../../helpers/in-process-server.ts';
import { CSP_HASHES_FILE, inlineScriptHashes } from '../../../core/csp.ts';
import { addressOf, close, listen } from '../../../server/http/http-server.ts';
import { createApp } from '../../../server/app.ts';
import { folderSite } from '../../../server/http/served-site.ts';
import { createLogger } from '../../../server/logger.ts';
import { exactRequest } from '../../helpers/http.ts';
import { useTempDir } from '../../helpers/temp-dir.ts';

let server: InProcessServer;
beforeAll(async () => {
  server = await startInProcessServer();
});
afterAll(() => server.stop());

const get = (path: string, headers: Record<string, string> = {}) =>
  fetch(server.url + path, { headers, redirect: 'manual' });

/**
 * A request sent exactly as written: fetch would normalise '..' away, and it turns a conditional GET into a
 * `Cache-Control: no-cache` one, which a server must answer in full.
 */
async function rawGet(path: string, headers: Record<string, string> = {}) {
  const answer = await exactRequest(server.url, { path, headers });
  return { ...answer, body: answer.body.toString() };
}

describe('static pages', () => {
  it('serves / and each page at its exact path with 200, revalidated HTML', async () => {
    for (const [path, file] of [
      ['/', 'index.html'],
      ['/services/medical-detox', 'services/medical-detox.html'],
    ] as const) {
      const response = await get(path);
      expect(response.status, path).toBe(200);
      expect(await response.text()).toBe(PAGES[file]);
      expect(response.headers.get('content-type')).toBe('text/html; charset=utf-8');
      expect(response.headers.get('cache-control')).toBe('no-cache');
      expect(response.headers.get('etag')).toBeTruthy();
    }
  });

  it('answers 304 when the ETag still matches, and 200 when it does not', async () => {
    // Each encoding has its own ETag, so the browser revalidates with the Accept-Encoding it fetched with.
    const br = { 'Accept-Encoding': 'br' };
    const etag = (await rawGet('/services/medical-detox', br)).headers.etag ?? '';
    const again = await rawGet('/services/medical-detox', { ...br, 'If-None-Match': etag });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect((await rawGet('/services/medical-detox', { ...br, 'If-None-Match': '"stale"' })).status).toBe(200);
    // The same ETag for another encoding is another representation: answered in full.
    expect((await rawGet('/services/medical-detox', { 'If-None-Match': etag })).status).toBe(200);
  });

  it('redirects a trailing slash (and .html, /index) to the page with 301, keeping the query', async () => {
    for (const [from, to] of [
      ['/services/medical-detox/', '/services/medical-detox'],
      ['/services/medical-detox//?utm=x', '/services/medical-detox?utm=x'],
      ['/services/medical-detox.html', '/services/medical-detox'],
      ['/index.html', '/'],
    ]) {
      const response = await get(from!);
      expect(response.status, from).toBe(301);
      expect(response.headers.get('location'), from).toBe(to);
    }
  });

  it('caches hashed assets for a year, immutable', async () => {
    const response = await get('/assets/app-abc123.js');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PAGES['assets/app-abc123.js']);
    expect(response.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
  });

  it('serves other files at the root of the build', async () => {
    const response = await get('/robots.txt');
    expect(response.status).toBe(200);
    expect(await response.text()).toBe(PAGES['robots.txt']);
  });

  it('compresses what the client accepts compressed', async () => {
    const response = await get('/services/medical-detox', { 'Accept-Encoding': 'gzip' });
    // fetch inflates the body itself; the header shows the wire format.
    expect(response.headers.get('content-encoding')).toBe('gzip');
    expect(await response.text()).toBe(PAGES['services/medical-detox.html']);
  });

  it('sets security headers', async () => {
    const response = await get('/');
    expect(response.headers.get('x-content-type-options')).toBe('nosniff');
    expect(response.headers.get('x-powered-by')).toBeNull();
  });

  it('answers unknown paths with the 404 page, status 404, and logs the path', async () => {
    for (const path of ['/no-such-page', '/treatment/', '/services/no-such-page/', '/assets/app-old.js']) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
      expect(await response.text(), path).toBe(PAGES['404.html']);
    }
    expect(server.logs).toContainEqual(
      expect.objectContaining({ level: 30, msg: 'not found', path: '/no-such-page' }),
    );
  });

  it('never serves the 404 page, build internals or files outside the build as pages', async () => {
    for (const path of [
      '/404',
      '/404.html',
      '/404%2Ehtml',
      '/.vite/manifest.json',
      '/.csp.json',
      '/assets',
    ]) {
      const response = await get(path);
      expect(response.status, path).toBe(404);
    }
    for (const path of [
      '/../secret.txt',
      '/assets/../../secret.txt',
      '/%2e%2e/secret.txt',
      '/assets/%2e%2e%2f%2e%2e%2fsecret.txt',
      '/..%5csecret.txt',
      '/%E0%A4%A',
    ]) {
      const response = await rawGet(path);
      expect(response.status, path).toBe(404);
      expect(response.body, path).not.toContain('do not serve');
    }
  });

  it('answers HEAD like GET without a body', async () => {
    const response = await fetch(server.url + '/services/medical-detox', { method: 'HEAD' });
    expect(response.status).toBe(200);
    expect(await response.text()).toBe('');
  });
});

describe('content security policy per page', () => {
  const HOME = '<!doctype html><title>Home</title><script>window.a = 1</script><h1>Home</h1>';
  const DETOX =
    '<!doctype html><title>Detox</title><script>window.b = 2</script><script src="/x.js"></script>';
  const NOT_FOUND = '<!doctype html><title>404</title><script>window.c = 3</script>';

  const tempDir = useTempDir('server-test-');

  /** A build with inline scripts, their hashes beside it (unless `withHashes` is false), served by a real server. */
  async function serveBuild(withHashes: boolean) {
    const dir = writeClientDir(tempDir());
    for (const [file, html] of [
      ['index.html', HOME],
      ['services/medical-detox.html', DETOX],
      ['404.html', NOT_FOUND],
    ] as const)
      writeFileSync(join(dir, file), html);
    // What the build's precompression writes beside each page.
    writeFileSync(join(dir, 'index.html.gz'), 'gzip bytes');
    if (withHashes)
      writeFileSync(
        join(dir, CSP_HASHES_FILE),
        JSON.stringify({
          'index.html': inlineScriptHashes(HOME),
          'services/medical-detox.html': inlineScriptHashes(DETOX),
          '404.html': inlineScriptHashes(NOT_FOUND),
        }),
      );
    const app = createApp({
      site: folderSite(dir, []),
      forms: { posts: (_req, _res, next) => next(), router: express() },
      logger: createLogger({ level: 'silent' }),
      trustProxy: false,
    });
    const server = await listen(app, 0, '127.0.0.1');
    return {
      url: addressOf(server),
      stop: () => close(server),
    };
  }

  const scriptSrc = (response: Response) =>
    /(?:^|;)script-src ([^;]*)/.exec(response.headers.get('content-security-policy') ?? '')?.[1]?.split(' ');

  it("allows each page exactly its own inline scripts, and the not-found answer the 404 page's", async () => {
    const built = await serveBuild(true);
    try {
      expect(inlineScriptHashes(DETOX)).toHaveLength(1);
      expect(scriptSrc(await fetch(`${built.url}/`))).toEqual(["'self'", ...inlineScriptHashes(HOME)]);
      expect(scriptSrc(await fetch(`${built.url}/services/medical-detox`))).toEqual([
        "'self'",
        ...inlineScriptHashes(DETOX),
      ]);
      const missing = await fetch(`${built.url}/no-such-page`);
      expect(missing.status).toBe(404);
      expect(scriptSrc(missing)).toEqual(["'self'", ...inlineScriptHashes(NOT_FOUND)]);
      // Files that are not pages keep the policy that allows no inline script.
      expect(scriptSrc(await fetch(`${built.url}/robots.txt`))).toEqual(["'self'"]);
      // Nor as a file: neither the hashes nor a page's precompressed copy, which would bypass its policy.
      expect((await fetch(`${built.url}/${CSP_HASHES_FILE}`)).status).toBe(404);
      expect((await fetch(`${built.url}/index.html.gz`)).status).toBe(404);
    } finally {
      await built.stop();
    }
  });

  it('allows no inline script at all when the build has no hashes (fails closed)', async () => {
    const built = await serveBuild(false);
    try {
      for (const path of ['/', '/services/medical-detox', '/no-such-page'])
        expect(scriptSrc(await fetch(`${built.url}${path}`)), path).toEqual(["'self'"]);
    } finally {
      await built.stop();
    }
  });
});
