// POST /api/forms/:formId. JSON from the enhanced form (201 or 400 with field errors); a plain urlencoded POST when
// JavaScript is off (303 to a received page, or 400 with a page listing the mistakes). The guards run cheapest first:
// rate limit, form, content type, origin, then the body. The lead is stored, with its pending chat alert, before
// anything is answered.
import express, { type Express, type RequestHandler } from 'express';
import type { FormDefinition, Site } from '../generated/content-types.ts';
import { FORM_TYPE, JSON_TYPE, isPlainForm, refusal } from './form-answers.ts';
import { invalidPage, receivedPage } from './form-pages.ts';
import { formRateLimit } from './form-rate-limit.ts';
import { formSubmission } from './form-submission.ts';
import type { LeadStore } from './lead-store.ts';
import type { Logger } from './logger.ts';
import { originCheck } from './origin-check.ts';

export interface FormApiOptions {
  forms: Map<string, FormDefinition>;
  store: LeadStore;
  site: Site;
  logger: Logger;
  /** Submissions per address per 10 minutes (FORM_RATE_LIMIT). */
  rateLimit: number;
  /** Origins besides the site's own whose pages may post (ALLOWED_ORIGINS). */
  allowedOrigins: readonly string[];
  /** Express's `trust proxy`: which proxies' X-Forwarded-For names the visitor, whose address the rate limit counts. */
  trustProxy?: boolean | number | string;
  /** Told after each lead is stored, so the alert worker delivers at once. */
  onLeadStored?: (leadId: string) => void;
}

const BODY_LIMIT = '16kb';

export const receivedPath = (formId: string): string => `/forms/${encodeURIComponent(formId)}/received`;

const formIdOf = (param: string | string[] | undefined) => (typeof param === 'string' ? param : '');

/**
 * An Express app of its own, so that its `trust proxy` decides the visitor's address for the rate limit: behind a
 * proxy, without it, every visitor would share the proxy's address and its limit.
 */
export function formApi(options: FormApiOptions): Express {
  const { forms, site, logger } = options;
  const submit = formSubmission(options);

  const knownForm: RequestHandler = (req, res, next) => {
    if (forms.has(formIdOf(req.params.formId))) return next();
    res.status(404).json({ error: 'Unknown form' });
  };

  const acceptedType: RequestHandler = (req, res, next) => {
    if (req.is([JSON_TYPE, FORM_TYPE])) return next();
    res.status(415).json({ error: `Send ${JSON_TYPE} or ${FORM_TYPE}` });
  };

  const refuseForeign = refusal(site, 403);
  const sameOrigin = originCheck({
    allowedOrigins: options.allowedOrigins,
    requireOrigin: (req) => !isPlainForm(req),
    refuse: (req, res, message) => {
      logger.warn({ path: req.path, origin: req.get('origin')?.slice(0, 200) ?? null }, 'form post refused');
      refuseForeign(req, res, message);
    },
  });

  const received: RequestHandler = (req, res, next) => {
    const def = forms.get(formIdOf(req.params.formId));
    if (!def) return next();
    res
      .set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' })
      .type('html')
      .send(receivedPage(def, site, req.query.from));
  };

  const router = express();
  router.set('trust proxy', options.trustProxy ?? false);
  router.disable('x-powered-by');
  // Every answer here is a one-off (no-store): an ETag would only cost a hash of each body.
  router.set('etag', false);
  router.post(
    '/api/forms/:formId',
    formRateLimit({ limit: options.rateLimit, site, logger }),
    knownForm,
    acceptedType,
    sameOrigin,
    express.json({ limit: BODY_LIMIT }),
    express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 100 }),
    (req, res) => {
      const formId = formIdOf(req.params.formId);
      const def = forms.get(formId);
      if (!def) throw new Error(`form ${formId} passed knownForm but has no definition`);
      return submit(req, res, {
        formId,
        def,
        stored: (id, source) => {
          if (isPlainForm(req))
            res.redirect(303, `${receivedPath(formId)}?from=${encodeURIComponent(source)}`);
          else res.status(201).json({ id });
        },
        invalid: (errors, source) => {
          res.status(400);
          if (isPlainForm(req))
            res
              .set('Cache-Control', 'no-store')
              .type('html')
              .send(invalidPage(def, site, errors, source));
          else res.json({ errors });
        },
      });
    },
  );
  router.get('/forms/:formId/received', received);
  return router;
}
