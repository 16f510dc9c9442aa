import type { RequestHandler } from 'express';
import helmet from 'helmet';

/** Security headers for every answer. */
export function security(): RequestHandler[] {
  return [
    helmet({
      // Off for now: the prerendered pages carry inline hydration scripts, which a policy can only allow by their
      // per-page hashes. The issue that adds the Content-Security-Policy computes those at build time.
      contentSecurityPolicy: false,
    }),
  ];
}
