// POST /api/forms/:formId. JSON from the enhanced form (201 or 400 with field errors); a plain urlencoded POST when
// JavaScript is off (303 to a received page, or 400 with a page listing the mistakes). The lead is stored, with its
// pending chat alert, before anything is answered.
import express, { type RequestHandler, type Router } from 'express';
import type { FormDefinition, Site } from '../generated/content-types.ts';
import { createSubmissionValidator } from './form-validation.ts';
import { invalidPage, receivedPage } from './form-pages.ts';
import type { LeadStore } from './lead-store.ts';
import type { Logger } from './logger.ts';

export interface FormApiOptions {
  forms: Map<string, FormDefinition>;
  store: LeadStore;
  site: Site;
  logger: Logger;
  /** Told after each lead is stored, so the alert worker delivers at once. */
  onLeadStored?: (leadId: string) => void;
}

const BODY_LIMIT = '16kb';
const JSON_TYPE = 'application/json';
const FORM_TYPE = 'application/x-www-form-urlencoded';

export const receivedPath = (formId: string): string => `/forms/${encodeURIComponent(formId)}/received`;

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

export function formApi({ forms, store, site, logger, onLeadStored }: FormApiOptions): Router {
  const validators = new Map([...forms].map(([id, def]) => [id, createSubmissionValidator(def)]));
  const formIdOf = (param: string | string[] | undefined) => (typeof param === 'string' ? param : '');

  const knownForm: RequestHandler = (req, res, next) => {
    if (validators.has(formIdOf(req.params.formId))) return next();
    res.status(404).json({ error: 'Unknown form' });
  };

  const acceptedType: RequestHandler = (req, res, next) => {
    if (req.is([JSON_TYPE, FORM_TYPE])) return next();
    res.status(415).json({ error: `Send ${JSON_TYPE} or ${FORM_TYPE}` });
  };

  const submit: RequestHandler = (req, res) => {
    const formId = formIdOf(req.params.formId);
    const def = forms.get(formId);
    const validate = validators.get(formId);
    if (!def || !validate) throw new Error(`form ${formId} passed knownForm but has no validator`);
    const withoutScript = Boolean(req.is(FORM_TYPE));
    const body: unknown = req.body;
    if (!isRecord(body)) {
      res.status(400).json({ error: 'Expected a JSON object with the form fields' });
      return;
    }

    const submission = validate(body);
    if (!submission.ok) {
      // Field names only: the values are the visitor's and stay out of the log.
      logger.info({ formId, invalid: Object.keys(submission.errors) }, 'form submission rejected');
      res.status(400);
      if (withoutScript)
        res
          .set('Cache-Control', 'no-store')
          .type('html')
          .send(invalidPage(def, site, submission.errors, body.source));
      else res.json({ errors: submission.errors });
      return;
    }

    const id = store.insertLead(formId, submission.data, submission.source);
    logger.info({ formId, leadId: id }, 'lead stored');
    onLeadStored?.(id);
    if (withoutScript)
      res.redirect(303, `${receivedPath(formId)}?from=${encodeURIComponent(submission.source)}`);
    else res.status(201).json({ id });
  };

  const received: RequestHandler = (req, res, next) => {
    const def = forms.get(formIdOf(req.params.formId));
    if (!def) return next();
    res
      .set({ 'Cache-Control': 'no-store', 'X-Robots-Tag': 'noindex' })
      .type('html')
      .send(receivedPage(def, site, req.query.from));
  };

  const router = express.Router();
  router.post(
    '/api/forms/:formId',
    knownForm,
    acceptedType,
    express.json({ limit: BODY_LIMIT }),
    express.urlencoded({ limit: BODY_LIMIT, extended: false, parameterLimit: 100 }),
    submit,
  );
  router.get('/forms/:formId/received', received);
  return router;
}
