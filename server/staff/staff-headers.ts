// The headers of everything under /staff: never indexed, never cached (but for hashed assets), never framed, a CSP as
// strict as the site's (no inline script; the app's styles only with this response's nonce), and a Permissions-Policy
// that allows passkeys for this origin only and keeps every other feature off, as the site does.
import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import { PERMISSIONS_POLICY } from '../http/security.ts';

/** In the app's index.html (`<meta name="csp-nonce">`), replaced by each response's nonce. */
export const NONCE_PLACEHOLDER = '__CSP_NONCE__';

const PASSKEYS_OFF = 'publickey-credentials-get=()';
if (!PERMISSIONS_POLICY.includes(PASSKEYS_OFF))
  throw new Error(`the site's Permissions-Policy no longer has ${PASSKEYS_OFF}: update the staff one`);

/** The site's policy, with passkeys allowed for this origin (the sign-in and enrolment ceremonies). */
export const STAFF_PERMISSIONS_POLICY = `${PERMISSIONS_POLICY.replace(
  PASSKEYS_OFF,
  'publickey-credentials-get=(self)',
)}, publickey-credentials-create=(self)`;

/** This response's CSP nonce (set by staffHeaders). */
export const nonceOf = (res: ServerResponse): string =>
  (res as ServerResponse & { cspNonce: string }).cspNonce;

export function staffHeaders(secure: (req: IncomingMessage) => boolean): RequestHandler {
  const base = helmet({
    contentSecurityPolicy: {
      useDefaults: false,
      directives: {
        defaultSrc: ["'none'"],
        scriptSrc: ["'self'"],
        // Mantine's own <style> elements carry the nonce (the app reads it from the meta element).
        styleSrc: ["'self'", (_req, res) => `'nonce-${nonceOf(res)}'`],
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        connectSrc: ["'self'"],
        manifestSrc: ["'self'"],
        baseUri: ["'none'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    },
    strictTransportSecurity: false,
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    // Nothing of the inbox's addresses (a lead's id) goes to another site.
    referrerPolicy: { policy: 'no-referrer' },
    xFrameOptions: { action: 'deny' },
  });
  const hsts = helmet.strictTransportSecurity({ maxAge: 365 * 24 * 60 * 60, includeSubDomains: true });
  return (req, res, next) => {
    (res as unknown as { cspNonce: string }).cspNonce = randomBytes(16).toString('base64');
    res.setHeader('Permissions-Policy', STAFF_PERMISSIONS_POLICY);
    res.setHeader('X-Robots-Tag', 'noindex, nofollow');
    res.setHeader('Cache-Control', 'no-store');
    base(req, res, (error?: unknown) => {
      if (error !== undefined || !secure(req)) return next(error);
      hsts(req, res, next);
    });
  };
}

/**
 * This staff page may frame staff pages of its own origin (frame-src 'self'): the change set page shows the page before
 * and after in place. Each framed page must still allow it (framedBySelf); every other staff response refuses framing.
 */
export function framesSelf(res: ServerResponse): void {
  const policy = String(res.getHeader('Content-Security-Policy') ?? '');
  if (!policy.includes('frame-src')) res.setHeader('Content-Security-Policy', `${policy};frame-src 'self'`);
}

/** This staff response may be framed by a page of its own origin only (frame-ancestors 'self'), by no other site. */
export function framedBySelf(res: ServerResponse): void {
  const policy = String(res.getHeader('Content-Security-Policy') ?? '');
  res.setHeader(
    'Content-Security-Policy',
    policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
  );
  res.setHeader('X-Frame-Options', 'SAMEORIGIN');
}
