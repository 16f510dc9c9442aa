// Per-address limit on form submissions: a person sends a form a few times at most, a script sends thousands.
import { rateLimit } from 'express-rate-limit';
import type { RequestHandler } from 'express';
import type { Site } from '../generated/content-types.ts';
import { refusal } from './form-answers.ts';
import type { Logger } from './logger.ts';

export const RATE_LIMIT_WINDOW_MS = 10 * 60 * 1000;

export interface FormRateLimitOptions {
  /** Submissions one address may send per window (FORM_RATE_LIMIT). */
  limit: number;
  site: Site;
  logger: Logger;
}

const isSetupHint = (error: unknown): boolean =>
  error instanceof Error && 'code' in error && String(error.code).startsWith('ERR_ERL_');

const minutesOf = (seconds: number): string => {
  const minutes = Math.max(1, Math.ceil(seconds / 60));
  return `${minutes} minute${minutes === 1 ? '' : 's'}`;
};

/**
 * Counts every POST to the form API, valid or not, so probing costs the same as sending. The counts live in memory:
 * one server process per site (the SQLite store makes that so); a restart forgives everyone.
 */
export function formRateLimit({ limit, site, logger }: FormRateLimitOptions): RequestHandler {
  const refuse = refusal(site, 429);
  return rateLimit({
    windowMs: RATE_LIMIT_WINDOW_MS,
    limit,
    // RateLimit and RateLimit-Policy headers (IETF draft 7; draft 8 hashes the key on every request), and Retry-After
    // when refused.
    standardHeaders: 'draft-7',
    legacyHeaders: false,
    // The default key is the visitor's address (IPv6 by its /56 network). express-rate-limit's reports go to our log
    // instead of the console; its set-up checks (ERR_ERL_*, such as an X-Forwarded-For header while no proxy is
    // trusted) look at whatever the first request carried, which a visitor chooses: a hint for whoever deploys, so a
    // warning, not an error.
    logger: {
      warn: (error, message) => logger.warn({ err: error }, message ?? 'rate limiter warning'),
      error: (error, message) =>
        isSetupHint(error)
          ? logger.warn({ err: error }, message ?? 'rate limiter set-up hint')
          : logger.error({ err: error }, message ?? 'rate limiter failed'),
    },
    handler: (req, res) => {
      const seconds = Number(res.getHeader('Retry-After')) || RATE_LIMIT_WINDOW_MS / 1000;
      logger.warn({ path: req.path, retryAfterSeconds: seconds }, 'form rate limit reached');
      refuse(
        req,
        res,
        `Too many requests from your network. Please try again in ${minutesOf(seconds)}, or call us now.`,
      );
    },
  });
}
