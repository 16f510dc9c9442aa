// The HTTP headers a health provider's site owes its visitors, from helmet (configured here, not hand-written).
import express, { type Express, type RequestHandler } from 'express';
import helmet from 'helmet';

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
export function contentSecurityPolicy(scriptHashes: readonly string[] = []): RequestHandler {
  return helmet.contentSecurityPolicy({
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
  });
}

/**
 * Express's `trust proxy` from the TRUST_PROXY variable: unset or `false` trusts no proxy (X-Forwarded-* ignored);
 * `true` trusts every hop; a number trusts that many hops; anything else is Express's list of trusted addresses or
 * subnets, such as `loopback` or `10.0.0.0/8, 127.0.0.1`.
 */
export function trustProxyFrom(value: string | undefined): boolean | number | string {
  const raw = value?.trim() ?? '';
  if (raw === '' || raw === 'false') return false;
  if (raw === 'true') return true;
  if (/^\d+$/.test(raw)) return Number(raw);
  return raw;
}

export interface SecurityOptions {
  /** Which proxies may tell us the request came over HTTPS (X-Forwarded-Proto); see trustProxyFrom. */
  trustProxy?: boolean | number | string;
}

/**
 * Security headers for every answer. Pages replace the Content-Security-Policy set here with their own, which allows
 * their inline scripts (server/static-pages.ts); everything else keeps this one, which allows no inline script.
 *
 * It is a small Express app of its own so that its `trust proxy` setting decides `req.secure` here (HSTS only over
 * HTTPS, as a browser ignores it over HTTP and it must not be sent for a plain-HTTP origin such as a test server),
 * without changing how the rest of the server reads client addresses.
 */
export function security({
  trustProxy = trustProxyFrom(process.env.TRUST_PROXY),
}: SecurityOptions = {}): Express {
  const headers = express();
  headers.set('trust proxy', trustProxy);
  headers.disable('x-powered-by');
  const hsts = helmet.strictTransportSecurity({ maxAge: HSTS_MAX_AGE_SECONDS, includeSubDomains: true });
  headers.use(
    helmet({
      contentSecurityPolicy: false,
      strictTransportSecurity: false,
      crossOriginOpenerPolicy: { policy: 'same-origin' },
      referrerPolicy: { policy: 'strict-origin-when-cross-origin' },
      // The legacy twin of frame-ancestors 'none', for browsers that predate CSP 2.
      xFrameOptions: { action: 'deny' },
    }),
    contentSecurityPolicy(),
    (req, res, next) => {
      res.setHeader('Permissions-Policy', PERMISSIONS_POLICY);
      if (req.secure) hsts(req, res, next);
      else next();
    },
  );
  return headers;
}
