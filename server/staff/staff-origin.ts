// The staff area answers at one origin only, STAFF_ORIGIN (server/config.ts): its passkeys are bound to that host name
// and its cookie to that host. A request for /staff under another Host (the site's other names, a bare IP address, a
// name someone pointed at this server) is refused with 421 Misdirected Request, saying where the staff area is.
import type { IncomingMessage } from 'node:http';
import type { RequestHandler } from 'express';
import type { ErrorAnswer } from '../../contracts/staff-api.ts';

/** host[:port] as a URL spells it (lower case, no default port); undefined for a missing or malformed Host. */
function hostOf(req: IncomingMessage, protocol: string): string | undefined {
  const host = req.headers.host;
  if (!host) return undefined;
  try {
    const url = new URL(`${protocol}//${host}`);
    return url.host === host.toLowerCase() || url.host === host.toLowerCase().replace(/:(80|443)$/, '')
      ? url.host
      : undefined;
  } catch {
    return undefined;
  }
}

/** Refuses (421) every request whose Host is not STAFF_ORIGIN's. */
export function misdirected(origin: string): RequestHandler {
  const { host, protocol } = new URL(origin);
  const message = `The staff area is not at this address. Open ${origin}/staff/`;
  return (req, res, next) => {
    if (hostOf(req, protocol) === host) return next();
    res.status(421);
    if (req.path.startsWith('/staff/api/')) {
      const answer: ErrorAnswer = { error: message };
      res.json(answer);
    } else res.type('text/plain; charset=utf-8').send(message);
  };
}
