// Cross-site request forgery guard for the form API: a page on another site must not post leads in a visitor's name.
// Browsers send Origin with every fetch POST, so a JSON request without one did not come from a page of ours. A plain
// form POST may lack it (older browsers omit it), and is let through then; a foreign Origin is refused either way.
import type { Request, RequestHandler } from 'express';

export interface OriginCheckOptions {
  /** Further origins allowed to post (ALLOWED_ORIGINS), as `scheme://host[:port]`. */
  allowedOrigins: readonly string[];
  /** Whether the request must carry an Origin (JSON requests). */
  requireOrigin: (req: Request) => boolean;
  refuse: (req: Request, res: Parameters<RequestHandler>[1], message: string) => void;
}

/**
 * Same origin means the Origin's host (and port) is the Host the request was sent to. The scheme is not compared: behind
 * a proxy that ends TLS the server sees http while the browser says https.
 */
export function isSameHost(origin: string, host: string | undefined): boolean {
  if (!host) return false;
  try {
    return new URL(origin).host === new URL(`http://${host}`).host;
  } catch {
    return false;
  }
}

export function originCheck({ allowedOrigins, requireOrigin, refuse }: OriginCheckOptions): RequestHandler {
  const allowed = new Set(allowedOrigins);
  return (req, res, next) => {
    const origin = req.get('origin');
    if (origin === undefined) {
      if (!requireOrigin(req)) return next();
      return refuse(req, res, 'Send the Origin header: forms are posted from pages of this site');
    }
    if (allowed.has(origin) || isSameHost(origin, req.get('host'))) return next();
    refuse(req, res, 'Forms are accepted only from pages of this site');
  };
}
