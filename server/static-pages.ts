// The prerendered site: pages at their exact, slashless paths, hashed assets cached for good, other files as they are.
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, sep } from 'node:path';
import express, { type RequestHandler, type Router } from 'express';

interface PageFile {
  body: Buffer;
  etag: string;
}

const ASSETS_DIR = 'assets';
const NOT_FOUND_FILE = '404.html';

/** `index.html` is `/`, `services/medical-detox.html` is `/services/medical-detox` (and `x/index.html` is `/x`). */
export function pagePathOf(file: string): string {
  const path = `/${file.split(sep).map(encodeURIComponent).join('/')}`.replace(/\.html$/, '');
  return path.replace(/\/index$/, '') || '/';
}

/**
 * Every page of the build, read once at start: a page is then a map lookup, never a file-system path built from the
 * URL, and answering from memory is several times faster than from disk. Restart the server after a build.
 */
export function loadPages(clientDir: string): Map<string, PageFile> {
  const pages = new Map<string, PageFile>();
  const files = readdirSync(clientDir, { recursive: true, encoding: 'utf8' });
  for (const file of files) {
    if (!file.endsWith('.html') || file === NOT_FOUND_FILE || file.startsWith(ASSETS_DIR + sep)) continue;
    if (file.split(sep).some((part) => part.startsWith('.'))) continue;
    const body = readFileSync(join(clientDir, file));
    const etag = `"${createHash('sha1').update(body).digest('base64url')}"`;
    pages.set(pagePathOf(file), { body, etag });
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
      res.set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': 'no-cache', ETag: page.etag });
      res.send(page.body);
      return;
    }
    const canonical = canonicalOf(path);
    // Only to a page that exists: a redirect never invents a URL (nor an open redirect such as //host/).
    if (canonical !== path && pages.has(canonical))
      return res.redirect(301, canonical + queryOf(req.originalUrl));
    next();
  };
}

/** Everything else in the build (robots.txt, favicon, images), except HTML files, which only ever answer as pages. */
function serveFiles(clientDir: string): RequestHandler {
  // No directory redirect (it would add a trailing slash to page URLs) and no index files: pages are handled above.
  const files = express.static(clientDir, { index: false, redirect: false, fallthrough: true });
  return (req, res, next) => {
    const path = normalPath(req.path);
    if (path === undefined || /\.html\/*$/i.test(path)) return next();
    files(req, res, next);
  };
}

export function staticPages(clientDir: string): Router {
  const router = express.Router();
  router.use(
    `/${ASSETS_DIR}`,
    // File names carry a content hash, so a cached copy is never stale.
    express.static(join(clientDir, ASSETS_DIR), {
      immutable: true,
      maxAge: '1y',
      index: false,
      redirect: false,
      fallthrough: true,
    }),
  );
  router.use(servePages(loadPages(clientDir)));
  router.use(serveFiles(clientDir));
  return router;
}
