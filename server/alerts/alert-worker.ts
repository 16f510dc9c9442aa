// Delivers the pending chat alerts of the lead store to the team-chat webhook, with retries. The store is the queue:
// nothing lives only in memory, so a restart resumes where the last process stopped.
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import { buildChatAlert } from './chat-alert.ts';
import type { DueAlert, LeadStore } from '../leads/lead-store.ts';
import type { Logger } from '../logger.ts';
import { postJson } from './webhook-post.ts';

export interface AlertWorkerOptions {
  store: LeadStore;
  forms: Map<string, FormDefinition>;
  site: Site;
  logger: Logger;
  /** Slack-compatible incoming webhook; without it alerts stay pending until a restart with one. */
  webhookUrl: string | undefined;
  /** First retry delay; doubles per attempt. Default 2000. */
  retryBaseMs?: number;
  /** Attempts before an alert is marked dead. Default 8. */
  maxAttempts?: number;
  /** Longest backoff delay. Default 5 minutes. */
  maxDelayMs?: number;
  /** Look for due alerts at least this often, for alerts written by another process. Default 5000. */
  pollMs?: number;
  /** Per webhook call. Default 5000. */
  timeoutMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
}

export interface AlertWorker {
  start(): void;
  /** Called after a lead is stored: delivers at once instead of at the next poll. */
  leadStored(leadId: string): void;
  /** Stops polling and waits for the webhook call in flight, if any. */
  stop(): Promise<void>;
}

// A Retry-After beyond this is treated as a misbehaving receiver rather than obeyed for days.
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;
// A claimed alert is hidden for twice the call timeout plus this: longer than one call, so it is never sent twice in
// parallel, and short enough that an alert claimed by a process that was killed is sent soon after a restart.
const LEASE_MARGIN_MS = 1000;

type Outcome = { delivered: true } | { delivered: false; error: string; retryAfterMs?: number };

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** Exponential backoff with equal jitter: between half and all of min(cap, base * 2^(attempt - 1)). */
export function backoffMs(attempt: number, baseMs: number, capMs: number, random: () => number): number {
  const ceiling = Math.min(capMs, baseMs * 2 ** Math.max(0, attempt - 1));
  return ceiling / 2 + (random() * ceiling) / 2;
}

// A short, single-line body such as Slack's 'invalid_payload' explains a failure; anything else is left out, since a
// receiver might echo the message back.
const errorDetail = (body: string): string =>
  /^[\w .:-]{1,80}$/.test(body.trim()) ? `: ${body.trim()}` : '';

export function createAlertWorker(options: AlertWorkerOptions): AlertWorker {
  const { store, forms, site, logger, webhookUrl } = options;
  const retryBaseMs = options.retryBaseMs ?? 2000;
  const maxAttempts = options.maxAttempts ?? 8;
  const maxDelayMs = options.maxDelayMs ?? 5 * 60 * 1000;
  const pollMs = options.pollMs ?? 5000;
  const timeoutMs = options.timeoutMs ?? 5000;
  const random = options.random ?? Math.random;

  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let runAgain = false;
  // After a 429 the whole webhook is rate limited, not just the alert that met it.
  let pausedUntil = 0;

  async function post(url: string, alert: DueAlert): Promise<Outcome> {
    const message = buildChatAlert(alert.lead, forms.get(alert.lead.formId), site);
    try {
      const reply = await postJson(url, JSON.stringify(message), timeoutMs);
      if (reply.status >= 200 && reply.status < 300) return { delivered: true };
      const error = `HTTP ${reply.status}${errorDetail(reply.body)}`;
      if (reply.status !== 429) return { delivered: false, error };
      // Retry-After is the least wait; the backoff still grows, so 'Retry-After: 0' on every call cannot spin.
      const backoff = backoffMs(alert.attempt, retryBaseMs, maxDelayMs, random);
      const retryAfterMs = Math.max(parseRetryAfter(reply.retryAfter) ?? 0, backoff);
      return { delivered: false, error, retryAfterMs };
    } catch (error) {
      return { delivered: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  async function deliver(url: string, alert: DueAlert): Promise<void> {
    const leadId = alert.lead.id;
    const outcome = await post(url, alert);
    const now = Date.now();
    if (outcome.delivered) {
      await store.markDelivered(leadId, new Date(now));
      logger.info({ leadId, attempt: alert.attempt }, 'chat alert delivered');
    } else if (outcome.retryAfterMs !== undefined) {
      // Rate limiting says nothing about the alert itself, so it does not count towards marking it dead.
      pausedUntil = now + outcome.retryAfterMs;
      await store.scheduleRetry(leadId, pausedUntil, outcome.error);
      logger.warn(
        { leadId, attempt: alert.attempt, retryInMs: outcome.retryAfterMs },
        'chat webhook rate limited',
      );
    } else if (alert.attempt >= maxAttempts) {
      await store.markDead(leadId, outcome.error);
      logger.error(
        { leadId, attempts: alert.attempt, error: outcome.error },
        'chat alert dead: admissions were not told about this lead; retry it or call the person',
      );
    } else {
      const delay = backoffMs(alert.attempt, retryBaseMs, maxDelayMs, random);
      await store.scheduleRetry(leadId, now + delay, outcome.error);
      logger.warn(
        { leadId, attempt: alert.attempt, error: outcome.error, retryInMs: Math.round(delay) },
        'chat alert failed',
      );
    }
  }

  async function drain(url: string): Promise<void> {
    // One at a time: a claimed alert is in flight at once, so stop() leaves nothing claimed and unsent behind.
    while (!stopped && Date.now() >= pausedUntil) {
      const [alert] = await store.claimDueAlerts({
        now: Date.now(),
        limit: 1,
        leaseMs: 2 * timeoutMs + LEASE_MARGIN_MS,
      });
      if (!alert) return;
      await deliver(url, alert);
    }
  }

  function scheduleNext(afterError: boolean): void {
    if (stopped) return;
    const now = Date.now();
    const nextDue = afterError ? undefined : store.nextAlertDueAt();
    const untilDue = nextDue === undefined ? pollMs : Math.min(pollMs, Math.max(0, nextDue - now));
    timer = setTimeout(run, Math.max(untilDue, pausedUntil - now));
  }

  function run(): void {
    if (stopped || !webhookUrl) return;
    if (running) {
      runAgain = true;
      return;
    }
    clearTimeout(timer);
    let failed = false;
    running = drain(webhookUrl)
      .catch((error: unknown) => {
        failed = true;
        logger.error({ err: error }, 'alert worker failed; will try again');
      })
      .finally(() => {
        running = undefined;
        if (runAgain && !failed) {
          runAgain = false;
          run();
        } else scheduleNext(failed);
      });
  }

  return {
    start() {
      stopped = false;
      if (!webhookUrl) {
        logger.warn(
          'CHAT_WEBHOOK_URL is not set: leads are stored but no chat alert is sent; they stay pending',
        );
        return;
      }
      run();
    },
    leadStored(leadId) {
      if (!webhookUrl)
        logger.warn({ leadId }, 'lead stored without a chat alert: CHAT_WEBHOOK_URL is not set');
      else run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
