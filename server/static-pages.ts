// The prerendered site: pages at their exact, slashless paths, each with its own Content-Security-Policy, hashed
// assets cached for good, other files as they are.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { extname, join, sep } from 'node:path';
import express, { type Request, type RequestHandler, type Response, type Router } from 'express';
import { CSP_HASHES_FILE, type CspHashes } from '../scripts/lib/csp.ts';
import { contentSecurityPolicy } from './security.ts';

/** A file in memory with the compressed copies the build wrote beside it (scripts/lib/precompress.ts). */
interface Encoded {
  identity: Buffer;
  br?: Buffer;
  gzip?: Buffer;
  etag: string;
}

interface PageFile extends Encoded {
  /** Sets the page's Content-Security-Policy, which allows exactly its own inline scripts. */
  policy: RequestHandler;
}

function loadEncoded(file: string): Encoded {
  const identity = readFileSync(file);
  const copy = (suffix: string) => (existsSync(file + suffix) ? readFileSync(file + suffix) : undefined);
  return {
    identity,
    br: copy('.br'),
    gzip: copy('.gz'),
    etag: `"${createHash('sha1').update(identity).digest('base64url')}"`,
  };
}

/**
 * Sends the best encoding the client accepts, compressed once at build time: no compression per request. Each
 * encoding has its own ETag, and caches are told the answer varies with Accept-Encoding.
 */
function sendEncoded(req: Request, res: Response, file: Encoded): void {
  // Browsers list gzip before br at equal weight; brotli is smaller, so it wins whenever it is accepted.
  const coding = req.acceptsEncodings('br') ? 'br' : req.acceptsEncodings('gzip') ? 'gzip' : undefined;
  const body = coding === 'br' ? file.br : coding === 'gzip' ? file.gzip : undefined;
  res.vary('Accept-Encoding');
  if (body && coding) {
    res.set({ 'Content-Encoding': coding, ETag: `${file.etag.slice(0, -1)}-${coding}"` });
    res.send(body);
    return;
  }
  res.set('ETag', file.etag);
  res.send(file.identity);
}

const ASSETS_DIR = 'assets';
const NOT_FOUND_FILE = '404.html';

/** `index.html` is `/`, `services/medical-detox.html` is `/services/medical-detox` (and `x/index.html` is `/x`). */
export function pagePathOf(file: string): string {
  const path = `/${file.split(sep).map(encodeURIComponent).join('/')}`.replace(/\.html$/, '');
  return path.replace(/\/index$/, '') || '/';
}

/**
 * The inline-script hashes the build computed for each page (scripts/prerender.ts). A build without the file (an
 * older build, or a hand-made one in tests) gets none: its inline scripts are then blocked, never allowed.
 */
export function loadCspHashes(clientDir: string): CspHashes {
  const file = join(clientDir, CSP_HASHES_FILE);
  return existsSync(file) ? (JSON.parse(readFileSync(file, 'utf8')) as CspHashes) : {};
}

/** The policy of one built HTML file (its path relative to the build, in the OS's spelling). */
const policyOf = (hashes: CspHashes, file: string): RequestHandler =>
  contentSecurityPolicy(hashes[file.split(sep).join('/')] ?? []);

/**
 * Every page of the build, read once at start: a page is then a map lookup, never a file-system path built from the
 * URL, and answering from memory is several times faster than from disk. Restart the server after a build.
 */
export function loadPages(
  clientDir: string,
  hashes: CspHashes = loadCspHashes(clientDir),
): Map<string, PageFile> {
  const pages = new Map<string, PageFile>();
  const files = readdirSync(clientDir, { recursive: true, encoding: 'utf8' });
  for (const file of files) {
    if (!file.endsWith('.html') || file === NOT_FOUND_FILE || file.startsWith(ASSETS_DIR + sep)) continue;
    if (file.split(sep).some((part) => part.startsWith('.'))) continue;
    pages.set(pagePathOf(file), { ...loadEncoded(join(clientDir, file)), policy: policyOf(hashes, file) });
  }
  return pages;
}

/** The request path with each segment decoded and re-encoded, so /caf%c3%a9 and /caf%C3%A9 meet; undefined if garbled. */
function normalPath(rawPath: string): string | undefined {
  try {
    return rawPath
      .split('/')
      .map((segment) => encodeURIComponent(decodeURIComponent(segment)))
      .join('/');
  } catch {
    return undefined;
  }
}

/** The page a non-canonical spelling means: trailing slashes, a .html suffix or a trailing /index dropped. */
function canonicalOf(path: string): string {
  const bare = path.replace(/\/+$/, '').replace(/\.html$/, '');
  return bare.replace(/\/index$/, '') || '/';
}

const queryOf = (url: string): string => {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at);
};

function servePages(pages: Map<string, PageFile>): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const path = normalPath(req.path);
    if (path === undefined) return next();
    const page = pages.get(path);
    if (page) {
      // no-cache: revalidate every time (a new build changes the page), answered with 304 while the ETag matches.
      res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache' });
      page.policy(req, res, () => sendEncoded(req, res, page));
      return;
    }
    const canonical = canonicalOf(path);
    // Only to a page that exists: a redirect never invents a URL (nor an open redirect such as //host/).
    if (canonical !== path && pages.has(canonical))
      return res.redirect(301, canonical + queryOf(req.originalUrl));
    next();
  };
}

/**
 * Everything else in the build (robots.txt, favicon, images), except HTML files, which only ever answer as pages (with
 * their own policy), and their precompressed copies (`.html.br`, `.html.gz`, for hosts that serve those themselves).
 */
function serveFiles(clientDir: string): RequestHandler {
  // No directory redirect (it would add a trailing slash to page URLs) and no index files: pages are handled above.
  // Dot-files (.vite/manifest.json, the CSP hashes) are build internals: never served.
  const files = express.static(clientDir, {
    index: false,
    redirect: false,
    fallthrough: true,
    dotfiles: 'ignore',
  });
  return (req, res, next) => {
    const path = normalPath(req.path);
    if (path === undefined || /\.html(?:\.br|\.gz)?\/*$/i.test(path) || path.startsWith(`/${ASSETS_DIR}/`))
      return next();
    files(req, res, next);
  };
}

/** The hashed build assets, read once at start and answered from memory. */
function serveAssets(clientDir: string): RequestHandler {
  const dir = join(clientDir, ASSETS_DIR);
  const assets = new Map<string, Encoded>();
  if (existsSync(dir))
    for (const name of readdirSync(dir))
      if (!/\.(br|gz)$/.test(name)) assets.set(`/${ASSETS_DIR}/${name}`, loadEncoded(join(dir, name)));
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const asset = assets.get(req.path);
    if (!asset) return next();
    // File names carry a content hash, so a cached copy is never stale.
    res.type(extname(req.path)).set('Cache-Control', 'public, max-age=31536000, immutable');
    sendEncoded(req, res, asset);
  };
}

export function staticPages(clientDir: string): Router {
  const router = express.Router();
  const hashes = loadCspHashes(clientDir);
  router.use(serveAssets(clientDir));
  router.use(servePages(loadPages(clientDir, hashes)));
  router.use(serveFiles(clientDir));
  // What falls through ends in the not-found page (server/not-found.ts), or in a redirect or the form API, which have
  // no inline scripts: the 404 page's policy allows its scripts and nothing more.
  router.use(policyOf(hashes, NOT_FOUND_FILE));
  return router;
}
