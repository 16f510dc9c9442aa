// The lead pipeline as one piece: the store, the chat-alert worker and the form API that feeds them.
// `npm start` mounts it inside the full app; `npm run dev` mounts it beside Vite.
import type { Router } from 'express';
import type { FormDefinition, Site } from '../generated/content-types.ts';
import { createAlertWorker, type AlertWorker } from './alert-worker.ts';
import type { ServerConfig } from './config.ts';
import { formApi } from './form-api.ts';
import { openLeadStore, type LeadStore } from './lead-store.ts';
import { createLogger, type Logger } from './logger.ts';

export interface LeadPipeline {
  store: LeadStore;
  worker: AlertWorker;
  logger: Logger;
  /** POST /api/forms/:formId and the no-JavaScript received page. */
  router: Router;
}

export function createLeadPipeline(
  config: ServerConfig,
  site: Site,
  forms: Map<string, FormDefinition>,
): LeadPipeline {
  const personalFields = [
    ...new Set([...forms.values()].flatMap((def) => def.fields.map((field) => field.name))),
  ];
  const logger = createLogger({ level: config.logLevel, personalFields });
  const store = openLeadStore(config.leadsDb);
  const worker = createAlertWorker({
    store,
    forms,
    site,
    logger,
    webhookUrl: config.chatWebhookUrl,
    retryBaseMs: config.chatRetryBaseMs,
    maxAttempts: config.chatMaxAttempts,
  });
  const router = formApi({ forms, store, site, logger, onLeadStored: worker.leadStored });
  return { store, worker, logger, router };
}
