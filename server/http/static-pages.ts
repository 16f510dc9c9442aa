// The prerendered site, read once at start and answered from memory: pages at their exact, slashless paths, each
// with its own Content-Security-Policy; hashed assets cached for good; other files as they are. Each answer's bytes
// and headers are computed at start, so serving a page is a map lookup and one write, without Express: this is the
// path nearly every request takes, and it runs at several times Express's rate (npm run bench:serve).
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { extname, join, relative, sep } from 'node:path';
import type { Request, Response } from 'express';
import fresh from 'fresh';
import mime from 'mime-types';
import Negotiator from 'negotiator';
import { CSP_HASHES_FILE, type CspHashes } from '../../core/csp.ts';
import { COMPRESSIBLE, compressedCopies } from '../../core/precompress.ts';
import { SITE_DATA_FILE } from '../../core/page-paths.ts';
import { queryOf, siteLocation } from './redirects.ts';
import { contentSecurityPolicy, securityHeaders, type HeaderMap } from './security.ts';

export const ASSETS_DIR = 'assets';
export const NOT_FOUND_FILE = '404.html';
/**
 * Asset names carry a content hash, so a cached copy is never stale; anything else (a page, robots.txt, the 404 page)
 * is revalidated every time (a new build changes it), answered with 304 while the ETag matches.
 */
export const CACHE_CONTROL = { asset: 'public, max-age=31536000, immutable', other: 'no-cache' } as const;
const COPY_SUFFIXES = { br: '.br', gzip: '.gz' } as const;
type Coding = keyof typeof COPY_SUFFIXES;

/** One encoding of a file: its bytes, and every header of the answer over plain HTTP and over HTTPS. */
interface Variant {
  body: Buffer;
  etag: string;
  plain: HeaderMap;
  secure: HeaderMap;
}

/** A file of the build in each encoding it has. */
export interface StaticFile {
  identity: Variant;
  br?: Variant;
  gzip?: Variant;
}

/** `index.html` is `/`, `services/medical-detox.html` is `/services/medical-detox` (and `x/index.html` is `/x`). */
export function pagePathOf(file: string): string {
  const path = `/${file.split('/').map(encodeURIComponent).join('/')}`.replace(/\.html$/, '');
  return path.replace(/\/index$/, '') || '/';
}

/**
 * Every file of a built site by its path in it, `/`-separated (`index.html`, `assets/entry-1a2b.js`,
 * `index.html.br`): a folder read into memory, or a release from the store (server/releases/).
 */
export type SiteFiles = ReadonlyMap<string, Buffer>;

/** Every file under `dir` (a built site such as dist/client), by its path in it. */
export function readSiteFiles(dir: string): Map<string, Buffer> {
  const files = new Map<string, Buffer>();
  for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
    if (!entry.isFile()) continue;
    const path = join(entry.parentPath, entry.name);
    files.set(relative(dir, path).split(sep).join('/'), readFileSync(path));
  }
  return files;
}

/**
 * The inline-script hashes the prerender computed for each page (core/prerender/). A build without the file (an
 * older build, or a hand-made one in tests) gets none: its inline scripts are then blocked, never allowed.
 */
export function cspHashesOf(files: SiteFiles): CspHashes {
  const file = files.get(CSP_HASHES_FILE);
  return file ? (JSON.parse(file.toString('utf8')) as CspHashes) : {};
}

/** The CSP hashes of the built site in `dir`, reading only that file. */
export function loadCspHashes(dir: string): CspHashes {
  const file = join(dir, CSP_HASHES_FILE);
  return cspHashesOf(existsSync(file) ? new Map([[CSP_HASHES_FILE, readFileSync(file)]]) : new Map());
}

/** The policy of one built HTML file (its path in the build). */
export const policyOf = (hashes: CspHashes, file: string): HeaderMap =>
  contentSecurityPolicy(hashes[file] ?? []);

/**
 * A file and the compressed copies the build wrote beside it (core/precompress.ts). A text file without them
 * (a hand-made build) is compressed here once, so no answer is ever compressed per request.
 */
function loadFile(files: SiteFiles, path: string, headers: HeaderMap, policy: HeaderMap): StaticFile {
  const identity = files.get(path)!;
  const built = { br: files.get(path + COPY_SUFFIXES.br), gzip: files.get(path + COPY_SUFFIXES.gzip) };
  const computed =
    COMPRESSIBLE.test(path) && (!built.br || !built.gzip) ? compressedCopies(path, identity) : undefined;
  const hash = createHash('sha1').update(identity).digest('base64url');
  const security = securityHeaders(policy);
  const variant = (body: Buffer, coding?: Coding): Variant => {
    // Each encoding has its own ETag: caches must never hand a brotli body to a client that asked for gzip.
    const etag = coding ? `"${hash}-${coding}"` : `"${hash}"`;
    const own = {
      ...headers,
      // Caches are told the answer varies with Accept-Encoding, even when it is sent as it is.
      vary: 'Accept-Encoding',
      etag,
      'content-length': String(body.length),
      ...(coding ? { 'content-encoding': coding } : {}),
    };
    return { body, etag, plain: { ...security.plain, ...own }, secure: { ...security.secure, ...own } };
  };
  const file: StaticFile = { identity: variant(identity) };
  for (const coding of ['br', 'gzip'] as const) {
    const body = built[coding] ?? computed?.[coding];
    if (body) file[coding] = variant(body, coding);
  }
  return file;
}

/**
 * Every file of the build by the path it answers at. HTML files only ever answer as pages (with their own policy),
 * never by file name; precompressed copies are encodings of their file, never files of their own (a page's copy
 * would bypass its policy); dot-files (.vite/manifest.json, the CSP hashes) are build internals; the 404 page is the
 * not-found answer (server/http/not-found.ts), never a page.
 */
interface LoadedFiles {
  files: Map<string, StaticFile>;
  pages: Set<string>;
  assets: Map<string, StaticFile>;
}

/** Loads the files one at a time into `into`, pausing (yield) after each, so a caller may spread the work out. */
function* loadFiles(built: SiteFiles, hashes: CspHashes, into: LoadedFiles): Generator<void> {
  const { files, pages, assets } = into;
  const otherPolicy = contentSecurityPolicy();
  for (const file of built.keys()) {
    if (file.split('/').some((part) => part.startsWith('.')) || file === NOT_FOUND_FILE) continue;
    if (/\.(br|gz)$/.test(file) && built.has(file.replace(/\.(br|gz)$/, ''))) continue;
    const isPage = file.endsWith('.html');
    // The site data file is named by its content's hash too (core/prerender/): cached for good like an asset.
    const isAsset = file.startsWith(`${ASSETS_DIR}/`) || SITE_DATA_FILE.test(file);
    const headers = {
      'content-type': mime.contentType(extname(file)) || 'application/octet-stream',
      'cache-control': isAsset ? CACHE_CONTROL.asset : CACHE_CONTROL.other,
    };
    const at = isPage ? pagePathOf(file) : `/${file.split('/').map(encodeURIComponent).join('/')}`;
    if (isPage) pages.add(at);
    const loaded = loadFile(built, file, headers, isPage ? policyOf(hashes, file) : otherPolicy);
    files.set(at, loaded);
    if (isAsset) assets.set(at, loaded);
    yield;
  }
}

/** A slice of preparation work between two chances for the event loop to answer requests. */
const SLICE_MS = 3;

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

const ACCEPTED_CACHE_MAX = 256;

/** The site in memory, and the two ways a request reaches it. */
export interface StaticSite {
  /**
   * The fast path, before Express: answers a GET or HEAD of a file's exact path and returns true; anything else
   * (another method, another spelling, a redirect, the form API, a missing page) returns false untouched.
   */
  serve(req: IncomingMessage, res: ServerResponse, secure: boolean): boolean;
  /**
   * The same files for other spellings of their paths (percent-encoding, a trailing slash, `.html`), inside Express:
   * a page's other spelling is redirected to it with 301, and true returned. What falls through (false) gets the 404
   * page's policy.
   */
  serveOther(req: Request, res: Response, secure: boolean): boolean;
  /** The not-found page's bytes, if the build has one. */
  readonly notFoundPage: Buffer | undefined;
  /** The hashed assets it answers (its own and those kept from the release before), by path. */
  readonly assets: ReadonlyMap<string, StaticFile>;
}

/**
 * The built site in `files`, with every answer's bytes and headers computed now, so serving is a lookup and a write.
 * `kept` are assets of an earlier release still answered (a page open in a browser may still ask for them), unless
 * this release has a file at the same path.
 */
export function staticSiteFrom(
  built: SiteFiles,
  kept: ReadonlyMap<string, StaticFile> = new Map(),
): StaticSite {
  const hashes = cspHashesOf(built);
  const loaded: LoadedFiles = { files: new Map(), pages: new Set(), assets: new Map() };
  const steps = loadFiles(built, hashes, loaded);
  while (!steps.next().done);
  return siteOf(built, hashes, loaded, kept);
}

/**
 * staticSiteFrom off the request path: the same work in slices of SLICE_MS, the event loop answering requests between
 * them, so the visitors of the release being replaced wait no longer while the next one is prepared.
 */
export async function prepareStaticSite(
  built: SiteFiles,
  kept: ReadonlyMap<string, StaticFile> = new Map(),
): Promise<StaticSite> {
  const hashes = cspHashesOf(built);
  const loaded: LoadedFiles = { files: new Map(), pages: new Set(), assets: new Map() };
  const steps = loadFiles(built, hashes, loaded);
  let sliceStart = performance.now();
  while (!steps.next().done)
    if (performance.now() - sliceStart > SLICE_MS) {
      await yieldToEvents();
      sliceStart = performance.now();
    }
  return siteOf(built, hashes, loaded, kept);
}

function siteOf(
  built: SiteFiles,
  hashes: CspHashes,
  { files, pages, assets }: LoadedFiles,
  kept: ReadonlyMap<string, StaticFile>,
): StaticSite {
  for (const [path, file] of kept)
    if (!files.has(path)) {
      files.set(path, file);
      assets.set(path, file);
    }
  const notFoundPolicy = policyOf(hashes, NOT_FOUND_FILE);

  // Which encodings each distinct Accept-Encoding allows, parsed once: browsers send a handful of spellings.
  const accepted = new Map<string, { br: boolean; gzip: boolean }>();
  const acceptedBy = (header: string | undefined) => {
    const key = header ?? '';
    let entry = accepted.get(key);
    if (!entry) {
      const codings = new Negotiator({ headers: { 'accept-encoding': header } }).encodings(['br', 'gzip']);
      entry = { br: codings.includes('br'), gzip: codings.includes('gzip') };
      if (accepted.size >= ACCEPTED_CACHE_MAX) accepted.clear();
      accepted.set(key, entry);
    }
    return entry;
  };

  const send = (req: IncomingMessage, res: ServerResponse, file: StaticFile, secure: boolean): void => {
    const accepts = acceptedBy(req.headers['accept-encoding']);
    // Browsers list gzip before br at equal weight; brotli is smaller, so it wins whenever it is accepted.
    const variant = (accepts.br && file.br) || (accepts.gzip && file.gzip) || file.identity;
    const headers = secure ? variant.secure : variant.plain;
    if (fresh(req.headers, { etag: variant.etag })) {
      res.writeHead(304, headers).end();
      return;
    }
    res.writeHead(200, headers);
    res.end(req.method === 'HEAD' ? undefined : variant.body);
  };

  const isRead = (req: IncomingMessage) => req.method === 'GET' || req.method === 'HEAD';

  return {
    notFoundPage: built.get(NOT_FOUND_FILE),
    assets,
    serve(req, res, secure) {
      if (!isRead(req)) return false;
      const url = req.url ?? '/';
      const file = files.get(url.slice(0, url.length - queryOf(url).length));
      if (!file) return false;
      send(req, res, file, secure);
      return true;
    },
    serveOther(req, res, secure) {
      if (isRead(req)) {
        const path = normalPath(req.path);
        const file = path === undefined ? undefined : files.get(path);
        if (file) {
          send(req, res, file, secure);
          return true;
        }
        const canonical = path === undefined ? undefined : canonicalOf(path);
        // Only to a page that exists: a redirect never invents a URL (nor an open redirect such as //host/).
        const location =
          canonical !== undefined && canonical !== path && pages.has(canonical)
            ? siteLocation(canonical, req.originalUrl)
            : undefined;
        if (location !== undefined) {
          res.redirect(301, location);
          return true;
        }
      }
      // Redirects and the form API have no inline scripts; the 404 page's policy allows its scripts and no more.
      res.set(notFoundPolicy);
      return false;
    },
  };
}

/** Reads the build in `clientDir` once, as it is now. */
export const loadStaticSite = (clientDir: string): StaticSite => staticSiteFrom(readSiteFiles(clientDir));
