import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { servedSiteOf } from './served-site.ts';
import { CACHE_CONTROL } from './static-pages.ts';

// Only when a build has no 404 page: the visitor still gets a real page with a way home.
const FALLBACK_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>404</title><h1>404</h1><p>Page not found.</p><a href="/">Home</a></html>';
const LOGGED_PATH_MAX = 300;

/** The last route: the site's 404 page with status 404 (JSON under /api/), and the missing path in the log. */
export function notFound(logger: Logger): RequestHandler {
  return (req, res) => {
    logger.info({ method: req.method, path: req.path.slice(0, LOGGED_PATH_MAX) }, 'not found');
    if (req.path.startsWith('/api/')) {
      res.status(404).json({ error: 'Not found' });
      return;
    }
    res
      .status(404)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_CONTROL.other })
      .send(servedSiteOf(req).files.notFoundPage ?? FALLBACK_PAGE);
  };
}
