// The studio writes the repository's files, so only the studio itself may talk to it: a request must name the
// studio's own host (a DNS-rebinding page names its own), and a write must come from the studio's own page (a
// cross-site form or fetch carries its site's Origin, or none we accept).
import type { NextFunction, Request, Response } from 'express';

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

export function studioHosts(port: number): string[] {
  return [`127.0.0.1:${port}`, `localhost:${port}`];
}

export function localOnly(port: number) {
  const hosts = new Set(studioHosts(port));
  const origins = new Set([...hosts].map((host) => `http://${host}`));
  return (req: Request, res: Response, next: NextFunction) => {
    if (!hosts.has(req.headers.host ?? '')) {
      res.status(403).json({ error: 'the studio answers only at its own address on this computer' });
      return;
    }
    if (!SAFE_METHODS.has(req.method) && !origins.has(req.headers.origin ?? '')) {
      res.status(403).json({ error: 'changes are accepted only from the studio itself' });
      return;
    }
    next();
  };
}

/** The preview page, which the editor frames (same origin): the one page that may be framed, and only by the studio. */
const PREVIEW_PAGE = '/preview.html';

/**
 * No page of another site may frame the studio (a framed editor could be clicked into saving): `frame-ancestors 'none'`
 * and its legacy twin on every answer, but the preview page, which only the studio's own pages may frame.
 */
export function noFraming() {
  return (req: Request, res: Response, next: NextFunction) => {
    const preview = req.path === PREVIEW_PAGE;
    res.setHeader('Content-Security-Policy', preview ? "frame-ancestors 'self'" : "frame-ancestors 'none'");
    res.setHeader('X-Frame-Options', preview ? 'SAMEORIGIN' : 'DENY');
    next();
  };
}
