// Cross-site request forgery guard for the form API: a page on another site must not post leads in a visitor's name.
// Browsers send Origin with every fetch POST, so a JSON request without one did not come from a page of ours. A plain
// form POST may lack it (older browsers omit it), and is let through then; a foreign Origin is refused either way.
import type { IncomingMessage } from 'node:http';

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

/**
 * Says why a request may not post (its Origin is missing where it must be given, or foreign), or undefined when it
 * may. `allowedOrigins` are further origins allowed to post (ALLOWED_ORIGINS), as `scheme://host[:port]`.
 */
export function originCheck(allowedOrigins: readonly string[]) {
  const allowed = new Set(allowedOrigins);
  return (req: IncomingMessage, requireOrigin: boolean): string | undefined => {
    const { origin, host } = req.headers;
    if (origin === undefined)
      return requireOrigin ? 'Send the Origin header: forms are posted from pages of this site' : undefined;
    if (allowed.has(origin) || isSameHost(origin, host)) return undefined;
    return 'Forms are accepted only from pages of this site';
  };
}
