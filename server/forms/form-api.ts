// POST /api/forms/<formId>. JSON from the enhanced form (201 or 400 with field errors); a plain urlencoded POST when
// JavaScript is off (303 to a received page, or 400 with a page listing the mistakes). The guards run cheapest first:
// rate limit, form, content type, origin, then the body. The lead is stored, with its pending chat alert, before
// anything is answered.
//
// Every lead passes here, so it runs on Node's own request and response, ahead of Express (as the site's files do):
// answered through Express, a lead cost the server about twice the CPU (figures in
// docs/decisions/2026-11-22-form-posts-before-express.md). The libraries are those Express would use (body-parser,
// type-is, proxy-addr); the rate limit is server/forms/form-rate-limit.ts.
import type { IncomingMessage, ServerResponse } from 'node:http';
import bodyParser from 'body-parser';
import express, { type Express, type RequestHandler } from 'express';
import typeis from 'type-is';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import { clientErrorOf } from '../http/error-handler.ts';
import { FORM_TYPE, JSON_TYPE, isPlainForm, refuse, seeOther, sendJson, sendPage } from './form-answers.ts';
import { invalidPage, receivedPage } from './form-pages.ts';
import { formRateLimit, minutesOf } from './form-rate-limit.ts';
import { forwardedCheck } from './forwarded-check.ts';
import { formSubmission } from './form-submission.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import type { Logger } from '../logger.ts';
import { originCheck } from './origin-check.ts';
import type { TrustProxy } from '../config.ts';
import { secureRequests, securityHeaders } from '../http/security.ts';

export interface FormApiOptions {
  forms: Map<string, FormDefinition>;
  store: LeadStore;
  site: Site;
  logger: Logger;
  /** Submissions per address per 10 minutes (FORM_RATE_LIMIT). */
  rateLimit: number;
  /** Submissions the whole site takes per 10 minutes (FORM_GLOBAL_RATE_LIMIT). */
  siteRateLimit: number;
  /** Origins besides the site's own whose pages may post (ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** Which proxies' X-Forwarded-For names the visitor (the rate limit) and X-Forwarded-Proto says HTTPS (HSTS). */
  trustProxy?: TrustProxy;
  /** Told after each lead is stored, so the alert worker delivers at once. */
  onLeadStored?: (leadId: string) => void;
}

/** A handler in Node's own terms, as Connect (the dev server's Vite) and the server's front (app.ts) call it. */
export type NodeHandler = (req: IncomingMessage, res: ServerResponse, next: () => void) => void;

export interface FormApi {
  /** Takes POST /api/forms/<formId>; hands any other request to `next`. */
  posts: NodeHandler;
  /** GET /forms/<formId>/received: the page a plain form post is sent to once its lead is stored. */
  router: Express;
}

const BODY_LIMIT = '16kb';
const PREFIX = '/api/forms/';

export const receivedPath = (formId: string): string => `/forms/${encodeURIComponent(formId)}/received`;

/**
 * The form id of a POST to /api/forms/<formId> (a trailing slash and a query allowed, as Express routes), undefined
 * for any other request, null when the id is not valid percent-encoding.
 */
function postedFormId(req: IncomingMessage): string | null | undefined {
  const url = req.url ?? '';
  if (req.method !== 'POST' || !url.startsWith(PREFIX)) return undefined;
  const query = url.indexOf('?');
  let id = url.slice(PREFIX.length, query === -1 ? undefined : query);
  if (id.endsWith('/')) id = id.slice(0, -1);
  if (id === '' || id.includes('/')) return undefined;
  try {
    return decodeURIComponent(id);
  } catch {
    return null;
  }
}

/** Runs a body-parser parser: resolves with the body, or with what it reported (size, syntax, charset…). */
function parseBody(
  parser: ReturnType<typeof bodyParser.json>,
  req: IncomingMessage,
  res: ServerResponse,
): Promise<{ body: unknown } | { error: unknown }> {
  return new Promise((resolve) => {
    parser(req, res, (error?: unknown) =>
      resolve(error === undefined ? { body: (req as IncomingMessage & { body?: unknown }).body } : { error }),
    );
  });
}

export function formApi(options: FormApiOptions): FormApi {
  const { forms, site, logger, trustProxy = false } = options;
  const { plain: plainHeaders, secure: secureHeaders } = securityHeaders();
  // Set on every answer, as name and value pairs made once.
  const headerPairs = { plain: Object.entries(plainHeaders), secure: Object.entries(secureHeaders) };
  const secure = secureRequests(trustProxy);
  const overLimit = formRateLimit({
    limit: options.rateLimit,
    siteLimit: options.siteRateLimit,
    trustProxy,
    logger,
    counters: options.store.rateCounters,
  });
  const checkForwarded = forwardedCheck({ trustProxy, logger });
  const refusedOrigin = originCheck(options.allowedOrigins);
  const submit = formSubmission(options);
  const json = bodyParser.json({ limit: BODY_LIMIT });
  const urlencoded = bodyParser.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 100 });

  async function post(
    req: IncomingMessage,
    res: ServerResponse,
    formId: string | null,
    path: string | undefined,
  ): Promise<void> {
    for (const [name, value] of secure(req) ? headerPairs.secure : headerPairs.plain)
      res.setHeader(name, value);

    checkForwarded(req);
    const limited = await overLimit(req, res);
    if (limited?.scope === 'address') {
      logger.warn({ path, retryAfterSeconds: limited.retryAfter }, 'form rate limit reached');
      const wait = minutesOf(limited.retryAfter);
      return refuse(
        site,
        req,
        res,
        429,
        `Too many requests from your network. Please try again in ${wait}, or call us now.`,
      );
    }
    if (limited?.scope === 'site') {
      const wait = minutesOf(limited.retryAfter);
      const message = `We are receiving an unusual number of requests. Please try again in ${wait}, or call us now.`;
      return refuse(site, req, res, 429, message);
    }

    const def = formId === null ? undefined : forms.get(formId);
    if (formId === null || !def) return sendJson(res, 404, { error: 'Unknown form' });
    const plain = isPlainForm(req);
    if (!plain && !typeis(req, [JSON_TYPE]))
      return sendJson(res, 415, { error: `Send ${JSON_TYPE} or ${FORM_TYPE}` });

    const foreign = refusedOrigin(req, !plain);
    if (foreign !== undefined) {
      logger.warn({ path, origin: req.headers.origin?.slice(0, 200) ?? null }, 'form post refused');
      return refuse(site, req, res, 403, foreign);
    }

    const parsed = await parseBody(plain ? urlencoded : json, req, res);
    if ('error' in parsed) {
      const mistake = clientErrorOf(parsed.error);
      if (!mistake) throw parsed.error;
      // Never the error itself: body-parser attaches the raw body, the visitor's details, to it.
      logger.info({ path, status: mistake.status }, mistake.message);
      return refuse(site, req, res, mistake.status, mistake.message);
    }

    const outcome = await submit(formId, def, parsed.body, req.headers['idempotency-key']);
    switch (outcome.kind) {
      case 'stored':
        if (plain) return seeOther(res, `${receivedPath(formId)}?from=${encodeURIComponent(outcome.source)}`);
        return sendJson(res, 201, { id: outcome.id });
      case 'invalid':
        if (plain) return sendPage(res, 400, invalidPage(def, site, outcome.errors, outcome.source));
        return sendJson(res, 400, { errors: outcome.errors });
      case 'refused':
        return refuse(site, req, res, outcome.status, outcome.message, parsed.body);
    }
  }

  const posts: NodeHandler = (req, res, next) => {
    const formId = postedFormId(req);
    if (formId === undefined) return next();
    const path = req.url?.split('?')[0];
    post(req, res, formId, path).catch((error: unknown) => {
      const { name, message, stack } = error instanceof Error ? error : new Error(String(error));
      logger.error({ err: { name, message, stack }, method: req.method, path }, 'request failed');
      if (res.headersSent) res.destroy();
      else sendJson(res, 500, { error: 'Something went wrong on our side; please call us' });
    });
  };

  const received: RequestHandler = (req, res, next) => {
    const def = typeof req.params.formId === 'string' ? forms.get(req.params.formId) : undefined;
    if (!def) return next();
    res
      .set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' })
      .type('html')
      .send(receivedPage(def, site, req.query.from));
  };
  const router = express();
  router.disable('x-powered-by');
  // A one-off page (no-store): an ETag would only cost a hash of it.
  router.set('etag', false);
  router.get('/forms/:formId/received', received);
  return { posts, router };
}
