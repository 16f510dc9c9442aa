// The build's nginx include (dist/nginx/site.conf, server/http/nginx-site.ts) in Debian's nginx on the real build,
// against the Node server on the same build: a site deployed behind nginx (docs/DEPLOY.md) must answer every page,
// every other spelling of a page's path, every old address, the files beside the pages and every missing path
// exactly as the Node server does: same status, Location, media type, body, caching and security headers.
import { createHash } from 'node:crypto';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startSite, type RunningSite } from '../../helpers/site-under-test.ts';
import { startNginx, type NginxProcess } from '../../../scripts/lib/nginx-process.ts';
import { CSP_HASHES_FILE } from '../../../core/csp.ts';
import { redirectRules } from '../../../core/redirects.ts';
import { contentSecurityPolicy, securityHeaders } from '../../../server/http/security.ts';
import { NOT_FOUND_FILE, loadCspHashes, pagePathOf } from '../../../server/http/static-pages.ts';
import redirectTable from '../../../site/redirects.json' with { type: 'json' };

const CLIENT_DIR = join(import.meta.dirname, '..', '..', '..', 'dist', 'client');
const pages = Object.keys(loadCspHashes(CLIENT_DIR))
  .filter((file) => file !== NOT_FOUND_FILE)
  .map(pagePathOf);
const asset = (extension: string) =>
  `/assets/${readdirSync(join(CLIENT_DIR, 'assets')).find((file) => file.endsWith(extension))}`;

/** Every header the Node server sends for security (HSTS too: nginx's include is for the HTTPS server). */
const SECURITY_HEADERS = Object.keys(securityHeaders(contentSecurityPolicy()).secure);

let node: RunningSite;
let nginx: NginxProcess;
beforeAll(async () => {
  // As behind the TLS-terminating proxy: the Node server believes X-Forwarded-Proto from loopback and sends HSTS.
  [node, nginx] = await Promise.all([startSite({ TRUST_PROXY: 'loopback' }), startNginx()]);
});
afterAll(async () => {
  await Promise.all([node?.stop(), nginx?.stop()]);
});

interface Answer {
  status: number;
  location: string | null;
  type: string | null;
  cacheControl: string | null;
  security: Record<string, string | null>;
  /** The body's SHA-1, so that a difference is reported in one line. */
  body: string | null;
}

async function answer(base: string, path: string, headers: Record<string, string> = {}): Promise<Answer> {
  const response = await fetch(`${base}${path}`, {
    redirect: 'manual',
    headers: { 'Accept-Encoding': 'gzip', ...headers },
  });
  const header = (name: string) => response.headers.get(name);
  // A redirect's body (a line for browsers that do not follow it) and its policy govern nothing: not compared.
  const isRedirect = response.status >= 300 && response.status < 400;
  return {
    status: response.status,
    location: header('location'),
    type: isRedirect ? null : header('content-type'),
    cacheControl: header('cache-control'),
    security: Object.fromEntries(
      SECURITY_HEADERS.filter((name) => !(isRedirect && name === 'content-security-policy')).map((name) => [
        name,
        header(name),
      ]),
    ),
    body: isRedirect
      ? null
      : createHash('sha1')
          .update(Buffer.from(await response.arrayBuffer()))
          .digest('hex'),
  };
}

/** nginx's answer to each path is the Node server's, over HTTPS. */
async function expectSameAnswers(paths: readonly string[]): Promise<void> {
  for (const path of paths) {
    const [fromNode, fromNginx] = await Promise.all([
      answer(node.url, path, { 'X-Forwarded-Proto': 'https' }),
      answer(nginx.url, path),
    ]);
    expect(fromNginx, path).toEqual(fromNode);
  }
}

describe('the site behind nginx (dist/nginx/site.conf)', () => {
  it('answers every page as the Node server does, with its own Content-Security-Policy', async () => {
    expect(pages).toContain('/services/medical-detox');
    await expectSameAnswers(pages);
    const page = await answer(nginx.url, '/services/medical-detox');
    expect(page.status).toBe(200);
    expect(page.type).toBe('text/html; charset=utf-8');
    expect(page.security['content-security-policy']).toContain("'sha256-");
    expect(page.security['strict-transport-security']).toBe('max-age=31536000; includeSubDomains');
  });

  it('redirects the other spellings of a page’s path to it, keeping the query', async () => {
    await expectSameAnswers(
      pages.flatMap((path) =>
        path === '/' ? ['/index', '/index.html?from=test'] : [`${path}/`, `${path}.html?from=test`],
      ),
    );
    const answered = await answer(nginx.url, '/services/medical-detox/?from=test');
    expect([answered.status, answered.location]).toEqual([301, '/services/medical-detox?from=test']);
  });

  it('redirects every old address, with or without trailing slashes, keeping the query', async () => {
    const rules = redirectRules(redirectTable);
    expect(rules.length).toBeGreaterThan(10);
    await expectSameAnswers(rules.flatMap(({ from }) => [from, `${from}/`, `${from}//?utm_source=test`]));
    const anchored = rules.find(({ to }) => to.includes('#'));
    expect(anchored, 'an old address that leads to a section of a page').toBeDefined();
    const answered = await answer(nginx.url, `${anchored?.from}?utm_source=test`);
    expect(answered.location).toBe(anchored?.to.replace('#', '?utm_source=test#'));
  });

  it('serves assets cached for good and the other files revalidated, with the same headers', async () => {
    await expectSameAnswers([asset('.js'), asset('.css'), '/favicon.svg', '/robots.txt', '/sitemap.xml']);
    const script = await answer(nginx.url, asset('.js'));
    expect(script.cacheControl).toBe('public, max-age=31536000, immutable');
  });

  it('answers missing paths, build internals and compressed copies with the 404 page and status 404', async () => {
    const missing = [
      '/no-such-page',
      '/treatment/',
      '/assets/no-such-file.js',
      `/${NOT_FOUND_FILE}`,
      `/${CSP_HASHES_FILE}`,
      '/.vite/manifest.json',
      '/index.html.br',
      '/services/medical-detox.html.gz',
    ];
    await expectSameAnswers(missing);
    for (const path of missing) {
      const answered = await answer(nginx.url, path);
      expect(answered.status, path).toBe(404);
      expect(answered.type, path).toBe('text/html; charset=utf-8');
    }
  });
});
