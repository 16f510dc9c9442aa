// The lead pipeline as one piece: the store, the chat-alert worker and the form API that feeds them.
// `npm start` mounts it inside the full app; `npm run dev` mounts it beside Vite.
import type { FormDefinition, Site } from '../generated/content-types.ts';
import { createAlertWorker, type AlertWorker } from './alerts/alert-worker.ts';
import type { ServerConfig } from './config.ts';
import { formApi, type FormApi } from './forms/form-api.ts';
import { healthCheck, type ReleaseHealthSource } from './http/health-check.ts';
import type { LeadStore } from './store/contract/lead-store.ts';
import { openStore } from './store/open-store.ts';
import { createLogger, type Logger } from './logger.ts';
import { DEFAULT_SESSION_LIMITS } from './staff/staff-session-life.ts';
import { roundRobin } from './staff/round-robin.ts';

export interface LeadPipeline {
  store: LeadStore;
  worker: AlertWorker;
  logger: Logger;
  /** POST /api/forms/:formId; its router has the no-JavaScript received page, and GET /healthz. */
  forms: FormApi;
}

export type PipelineConfig = Pick<
  ServerConfig,
  | 'leadsDb'
  | 'databaseUrl'
  | 'databasePoolSize'
  | 'leadsEncryptionKey'
  | 'leadsKeyFile'
  | 'auditKey'
  | 'chatWebhookUrl'
  | 'chatAlertDetail'
  | 'chatRetryBaseMs'
  | 'chatRetryMaxMs'
  | 'chatAlertMaxAgeMs'
  | 'chatTimeoutMs'
  | 'formRateLimit'
  | 'formGlobalRateLimit'
  | 'allowedOrigins'
  | 'logLevel'
  | 'trustProxy'
> &
  Partial<Pick<ServerConfig, 'escalationRepeatMs' | 'roundRobin' | 'staffIdleMs' | 'staffSessionMs'>> & {
    /** How often overdue leads are looked for (tests shorten it). */
    escalationSweepMs?: number;
  };

/** Says where the encryption key came from, and warns where a deployment should do better. */
function reportKey(store: LeadStore, logger: Logger): void {
  const source = store.keySource;
  if (source.kind === 'created')
    logger.warn(
      { keyFile: source.file },
      'LEADS_ENCRYPTION_KEY is not set: created the lead key file. A real deployment should supply the key from its ' +
        'secret store; keep this file, apart from backups of the database: without it the sealed fields cannot be read',
    );
  else if (source.kind === 'file' && source.loose)
    logger.warn({ keyFile: source.file }, 'the lead key file is readable by other users: chmod 600 it');
  else if (source.kind === 'file')
    logger.info({ keyFile: source.file }, 'lead encryption key read from the key file');
}

/** Throws KeyError when the key is unusable or not the database's; the caller turns that into a start-up error. */
export async function createLeadPipeline(
  config: PipelineConfig,
  site: Site,
  forms: Map<string, FormDefinition>,
  options: { logger?: Logger; releaseHealth?: ReleaseHealthSource } = {},
): Promise<LeadPipeline> {
  const personalFields = [
    ...new Set([...forms.values()].flatMap((def) => def.fields.map((field) => field.name))),
  ];
  const logger = options.logger ?? createLogger({ level: config.logLevel, personalFields });
  // The audit chain's newest row, in the log too: a copy of its end that whoever can write the database cannot reach.
  const store = await openStore(config, {
    forms,
    onAuditHead: (auditHead) => logger.info({ auditHead }, 'audit log appended'),
  });
  reportKey(store, logger);
  const resealed = await store.sealLegacyLeads();
  if (resealed > 0)
    logger.info(
      { rows: resealed },
      'sealed the values, source pages and status changes older versions stored in clear',
    );

  const worker = createAlertWorker({
    store,
    forms,
    site,
    logger,
    webhookUrl: config.chatWebhookUrl,
    detail: config.chatAlertDetail,
    retryBaseMs: config.chatRetryBaseMs,
    retryMaxMs: config.chatRetryMaxMs,
    maxAgeMs: config.chatAlertMaxAgeMs,
    timeoutMs: config.chatTimeoutMs,
    escalationRepeatMs: config.escalationRepeatMs,
    escalationSweepMs: config.escalationSweepMs,
  });
  const assignNext = roundRobin(store, logger, {
    sessionLimits: {
      idleMs: config.staffIdleMs ?? DEFAULT_SESSION_LIMITS.idleMs,
      absoluteMs: config.staffSessionMs ?? DEFAULT_SESSION_LIMITS.absoluteMs,
    },
  });
  const api = formApi({
    forms,
    store,
    site,
    logger,
    rateLimit: config.formRateLimit,
    siteRateLimit: config.formGlobalRateLimit,
    allowedOrigins: config.allowedOrigins,
    // The same proxies the app believes for X-Forwarded-Proto name the visitor for the rate limit.
    trustProxy: config.trustProxy,
    onLeadStored: config.roundRobin
      ? (id) => {
          worker.leadStored(id);
          void assignNext(id);
        }
      : worker.leadStored,
  });
  // The health of the server is the health of its lead store: mounted with the form API that depends on it.
  api.router.get('/healthz', healthCheck(store, options.releaseHealth));
  return { store, worker, logger, forms: api };
}
