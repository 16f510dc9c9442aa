import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { RequestHandler } from 'express';
import type { Logger } from '../logger.ts';
import { CACHE_CONTROL, NOT_FOUND_FILE } from './static-pages.ts';

// Only when a build has no 404 page: the visitor still gets a real page with a way home.
const FALLBACK_PAGE =
  '<!doctype html><html lang="en"><meta charset="utf-8"><title>404</title><h1>404</h1><p>Page not found.</p><a href="/">Home</a></html>';
const LOGGED_PATH_MAX = 300;

/** The last route: the build's 404 page with status 404 (JSON under /api/), and the missing path in the log. */
export function notFound(clientDir: string, logger: Logger): RequestHandler {
  let page: Buffer | string;
  try {
    page = readFileSync(join(clientDir, NOT_FOUND_FILE));
  } catch {
    logger.warn({ clientDir }, 'no 404.html in the build; using a bare not-found page');
    page = FALLBACK_PAGE;
  }
  return (req, res) => {
    logger.info({ method: req.method, path: req.path.slice(0, LOGGED_PATH_MAX) }, 'not found');
    if (req.path.startsWith('/api/')) {
      res.status(404).json({ error: 'Not found' });
      return;
    }
    res
      .status(404)
      .set({ 'Content-Type': 'text/html; charset=utf-8', 'Cache-Control': CACHE_CONTROL.other })
      .send(page);
  };
}
