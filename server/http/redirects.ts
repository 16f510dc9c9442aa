// Old and alternative addresses (site/redirects.json) answer 301 to their page, trailing slash or not; and the one way
// any redirect of the site builds its Location (static-pages.ts redirects other spellings of a page with it too).
import type { Request, RequestHandler } from 'express';
import { redirectTarget, type RedirectRule } from '../../core/redirects.ts';

/**
 * The query of a request target (`?a=1`, or ''), whatever its form: `/path?a=1`, or the absolute form
 * `http://host/path?a=1` that HTTP/1.1 allows, whose scheme and host must never leak into a Location.
 */
export function queryOf(url: string): string {
  const at = url.indexOf('?');
  return at === -1 ? '' : url.slice(at);
}

// A path on this site: one slash, not two (`//host`) nor a backslash (`/\host`), which browsers read as another host.
const SITE_PATH = /^\/(?![/\\])/;

/**
 * The Location of a redirect to `path` (a site path, with an optional #fragment) keeping the query of the request
 * target `url`, or undefined when `path` is not a site path: whatever the request said, the host never changes.
 */
export function siteLocation(path: string, url: string): string | undefined {
  if (!SITE_PATH.test(path)) return undefined;
  const query = queryOf(url);
  const hash = path.indexOf('#');
  return hash === -1 ? path + query : path.slice(0, hash) + query + path.slice(hash);
}

/** Old addresses answered with 301 to their pages: `rulesOf` gives the rules the request is answered with. */
export function redirects(rulesOf: (req: Request) => readonly RedirectRule[]): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const target = redirectTarget(rulesOf(req), req.path);
    const location = target === undefined ? undefined : siteLocation(target, req.originalUrl);
    if (location === undefined) return next();
    res.redirect(301, location);
  };
}
