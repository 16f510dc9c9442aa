// Old and alternative addresses (site/redirects.json) answer 301 to their page, trailing slash or not.
import type { RequestHandler } from 'express';
import { redirectTarget, type RedirectRule } from '../../core/redirects.ts';

export function redirects(rules: RedirectRule[]): RequestHandler {
  return (req, res, next) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') return next();
    const target = redirectTarget(rules, req.path);
    if (!target) return next();
    const query = req.originalUrl.slice(req.path.length);
    // The target is a site path from our own table, never from the request: no open redirect.
    res.redirect(301, target.includes('#') ? target.replace('#', `${query}#`) : target + query);
  };
}
