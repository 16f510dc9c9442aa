// The HTTP headers a health provider's site owes its visitors, from helmet (configured here, not hand-written).
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { TLSSocket } from 'node:tls';
import type { RequestHandler } from 'express';
import helmet from 'helmet';
import proxyaddr from 'proxy-addr';
import type { TrustProxy } from '../config.ts';

/** A year: the HSTS lifetime browsers and the preload list expect. */
const HSTS_MAX_AGE_SECONDS = 365 * 24 * 60 * 60;

/**
 * Browser features the site never uses, switched off for it and for anything that might ever get embedded in it.
 * helmet has no Permissions-Policy (the header is still a draft), so it is one line here. Only features Chromium
 * knows: an unknown one is reported on every page load.
 */
export const PERMISSIONS_POLICY = [
  'accelerometer',
  'autoplay',
  'camera',
  'display-capture',
  'geolocation',
  'gyroscope',
  'magnetometer',
  'microphone',
  'midi',
  'payment',
  'publickey-credentials-get',
  'usb',
  'browsing-topics',
]
  .map((feature) => `${feature}=()`)
  .join(', ');

/** Response headers by lower-case name, computed once and set as they are on each answer. */
export type HeaderMap = Readonly<Record<string, string>>;

type Middleware = (req: IncomingMessage, res: ServerResponse, next: (error?: unknown) => void) => void;

/**
 * The headers a helmet middleware sets, found once by running it against a response that only records them: helmet
 * decides every value, and no request pays for running it again.
 */
function headersSetBy(...middlewares: Middleware[]): HeaderMap {
  const headers: Record<string, string> = {};
  const recorder = {
    setHeader: (name: string, value: string | number | readonly string[]) => {
      headers[name.toLowerCase()] = String(value);
    },
    removeHeader: (name: string) => {
      delete headers[name.toLowerCase()];
    },
  };
  for (const middleware of middlewares)
    middleware({} as IncomingMessage, recorder as unknown as ServerResponse, (error) => {
      if (error) throw error;
    });
  return headers;
}

/**
 * The Content-Security-Policy of one response. Scripts only from this origin, plus the inline scripts whose hashes
 * are given (each prerendered page's own, computed at build time by scripts/prerender.ts); never 'unsafe-inline'.
 *
 * Styles do need 'unsafe-inline': Mantine writes `style="…"` attributes into the server-rendered markup (CSS variables
 * of sizes and colours on most components) and a `<style>` element of theme variables, and React sets style
 * attributes on hydration. Hashing attributes would need 'unsafe-hashes' and a hash per distinct value on every page;
 * style injection cannot run script, so the risk this leaves is small next to the one 'unsafe-inline' for scripts
 * would.
 */
export function contentSecurityPolicy(scriptHashes: readonly string[] = []): HeaderMap {
  return headersSetBy(
    helmet.contentSecurityPolicy({
      // Every directive spelled out here rather than merged with helmet's defaults, so this list is the whole policy.
      useDefaults: false,
      directives: {
        defaultSrc: ["'self'"],
        scriptSrc: ["'self'", ...scriptHashes],
        // No onclick="…" handlers: React attaches its own listeners.
        scriptSrcAttr: ["'none'"],
        styleSrc: ["'self'", "'unsafe-inline'"],
        // data: for the small inline images Mantine's CSS uses (such as the select chevron).
        imgSrc: ["'self'", 'data:'],
        fontSrc: ["'self'"],
        // The form API and the page chunks loaded on client navigation are on this origin.
        connectSrc: ["'self'"],
        objectSrc: ["'none'"],
        baseUri: ["'self'"],
        formAction: ["'self'"],
        frameAncestors: ["'none'"],
      },
    }),
  );
}

/** Whether the hop at `address`, `hop` steps from the server, is a proxy to believe, as Express reads `trust proxy`. */
export function trustFunction(trustProxy: TrustProxy): (address: string, hop: number) => boolean {
  if (trustProxy === true) return () => true;
  if (typeof trustProxy === 'number') return (_address, hop) => hop < trustProxy;
  return proxyaddr.compile(trustProxy === false ? [] : trustProxy.split(',').map((entry) => entry.trim()));
}

/**
 * Whether a request came over HTTPS, decided as Express's `req.secure` decides it under the same `trust proxy`
 * setting (proxy-addr, as Express uses it): a TLS socket, or X-Forwarded-Proto from a trusted proxy.
 */
export function secureRequests(trustProxy: TrustProxy): (req: IncomingMessage) => boolean {
  const trust = trustFunction(trustProxy);
  return (req) => {
    const own = (req.socket as TLSSocket).encrypted ? 'https' : 'http';
    if (!trust(req.socket.remoteAddress ?? '', 0)) return own === 'https';
    const forwarded = req.headers['x-forwarded-proto'];
    const proto = (Array.isArray(forwarded) ? forwarded[0] : forwarded) ?? own;
    return proto.split(',')[0]?.trim() === 'https';
  };
}

/** The headers of every answer, over plain HTTP and over HTTPS (which adds HSTS). */
export interface SecurityHeaders {
  plain: HeaderMap;
  secure: HeaderMap;
}

// helmet's headers for every answer, computed once: each file of the site combines them with its own policy.
const BASE_HEADERS = headersSetBy(
  helmet({
    contentSecurityPolicy: false,
    strictTransportSecurity: false,
    // Visitors type health and insurance details into these pages: kept although it costs each arrival a renderer
    // process of its own (measured in docs/decisions/2026-11-24-keep-coop-same-origin.md).
    crossOriginOpenerPolicy: { policy: 'same-origin' },
    referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
    // The legacy twin of frame-ancestors 'none', for browsers that predate CSP 2.
    xFrameOptions: { action: 'deny' },
  }),
);
const HSTS_HEADERS = headersSetBy(
  helmet.strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true }),
);

/**
 * Security headers for every answer, with the given Content-Security-Policy: pages pass their own, which allows their
 * inline scripts (server/http/static-pages.ts); everything else gets the one that allows no inline script. HSTS only over
 * HTTPS: a browser ignores it over HTTP, and it must not be sent for a plain-HTTP origin such as a test server.
 */
export function securityHeaders(policy: HeaderMap = contentSecurityPolicy()): SecurityHeaders {
  const plain = { ...BASE_HEADERS, ...policy, 'permissions-policy': PERMISSIONS_POLICY };
  return { plain, secure: { ...plain, ...HSTS_HEADERS } };
}

export interface SecurityOptions {
  /** Which proxies may tell us the request came over HTTPS (X-Forwarded-Proto). */
  trustProxy: TrustProxy;
}

/** Express middleware setting the security headers (the policy that allows no inline script) on every answer. */
export function security({ trustProxy }: SecurityOptions): RequestHandler {
  const headers = securityHeaders();
  const secure = secureRequests(trustProxy);
  return (req, res, next) => {
    res.set(secure(req) ? headers.secure : headers.plain);
    next();
  };
}
