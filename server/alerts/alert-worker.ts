// Delivers the pending chat alerts of the lead store to the team-chat webhook, retrying each until it is delivered
// (retry-policy.ts says when). The store is the queue: nothing lives only in memory, so a restart resumes where the
// last process stopped.
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import { buildChatAlert, type AlertDetail } from './chat-alert.ts';
import type { DueAlert, LeadStore } from '../store/contract/lead-store.ts';
import type { Logger } from '../logger.ts';
import { decideAfterFailure, parseRetryAfter, type RetryPolicy, type TryOutcome } from './retry-policy.ts';
import { postJson } from './webhook-post.ts';
import { createEscalator } from './escalation.ts';

export interface AlertWorkerOptions {
  store: LeadStore;
  forms: Map<string, FormDefinition>;
  site: Site;
  logger: Logger;
  /** Slack-compatible incoming webhook; without it alerts stay pending until a restart with one. */
  webhookUrl: string | undefined;
  /** CHAT_ALERT_DETAIL: what the message says about the person; nothing by default. */
  detail?: AlertDetail;
  /** CHAT_RETRY_BASE_MS: first retry delay; doubles per failure. */
  retryBaseMs: number;
  /** CHAT_RETRY_MAX_MS: longest retry delay. */
  retryMaxMs: number;
  /** CHAT_ALERT_MAX_AGE_H in milliseconds: how long a failing alert is retried before it is marked dead. */
  maxAgeMs: number;
  /** Look for due alerts at least this often, for alerts written by another process. Default 5000. */
  pollMs?: number;
  /** Per webhook call. Default 5000. */
  timeoutMs?: number;
  /** Jitter source, [0, 1). */
  random?: () => number;
  /** ESCALATION_REPEAT_MINUTES in milliseconds (escalation.ts); 10 minutes when unset. */
  escalationRepeatMs?: number;
  /** How often overdue leads are looked for; 15 s when unset. */
  escalationSweepMs?: number;
}

export interface AlertWorker {
  start(): void;
  /** Called after a lead is stored: delivers at once instead of at the next poll. */
  leadStored(leadId: string): void;
  /** Stops polling and waits for the webhook call in flight, if any. */
  stop(): Promise<void>;
}

// A claimed alert is hidden for twice the call timeout plus this: longer than one call, so it is never sent twice in
// parallel, and short enough that an alert claimed by a process that was killed is sent soon after a restart.
const LEASE_MARGIN_MS = 1000;

// The most webhook calls in flight at once, when alerts wait in a backlog (a burst of leads, or chat back after an
// outage): enough to keep up with a thousand leads a second on one PostgreSQL (one claim and one write per round, not
// per alert), few enough that a chat service's own burst allowance takes them.
export const ROUND_SIZE = 16;

// A short, single-line body such as Slack's 'invalid_payload' explains a failure; anything else is left out, since a
// receiver might echo the message back.
const errorDetail = (body: string): string =>
  /^[\w .:-]{1,80}$/.test(body.trim()) ? `: ${body.trim()}` : '';

export function createAlertWorker(options: AlertWorkerOptions): AlertWorker {
  const { store, forms, site, logger, webhookUrl } = options;
  const policy: RetryPolicy = {
    baseMs: options.retryBaseMs,
    maxMs: options.retryMaxMs,
    maxAgeMs: options.maxAgeMs,
    random: options.random ?? Math.random,
  };
  const pollMs = options.pollMs ?? 5000;
  const timeoutMs = options.timeoutMs ?? 5000;

  // Leads past their due time, unclaimed: told to the same chat (escalation.ts).
  const escalator =
    webhookUrl === undefined
      ? undefined
      : createEscalator({
          store,
          forms,
          site,
          logger,
          webhookUrl,
          repeatMs: options.escalationRepeatMs,
          sweepMs: options.escalationSweepMs,
          timeoutMs: options.timeoutMs,
        });
  let stopped = true;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let runAgain = false;
  // A failure or a 429 pauses every alert, not just the one that met it: the webhook is down or rate limited.
  let pausedUntil = 0;
  let failuresInARow = 0;

  async function post(url: string, alert: DueAlert): Promise<TryOutcome> {
    const message = buildChatAlert(alert.lead, forms.get(alert.lead.formId), site, options.detail);
    try {
      const reply = await postJson(url, JSON.stringify(message), timeoutMs);
      if (reply.status >= 200 && reply.status < 300) return { delivered: true };
      const error = `HTTP ${reply.status}${errorDetail(reply.body)}`;
      const retryAfterMs = reply.status === 429 ? parseRetryAfter(reply.retryAfter) : undefined;
      return retryAfterMs === undefined
        ? { delivered: false, error }
        : { delivered: false, error, retryAfterMs };
    } catch (error) {
      return { delivered: false, error: error instanceof Error ? error.message : String(error) };
    }
  }

  /** Records what the webhook answered to each alert of one round, sent at the same time. */
  async function settle(round: readonly DueAlert[], outcomes: readonly TryOutcome[]): Promise<void> {
    const now = Date.now();
    const delivered = round.filter((_, index) => outcomes[index]?.delivered);
    if (delivered.length > 0) {
      // One write for the round, whatever its size.
      await store.markDelivered(
        delivered.map((alert) => alert.lead.id),
        new Date(now),
      );
      for (const alert of delivered)
        logger.info({ leadId: alert.lead.id, attempt: alert.attempt }, 'chat alert delivered');
    }
    // The failures of one round are one failure of the webhook: it was asked at one moment, so its pause grows by one
    // step per round, not per alert.
    let pauseUntil = 0;
    for (const [index, alert] of round.entries()) {
      const outcome = outcomes[index];
      if (!outcome || outcome.delivered) continue;
      pauseUntil = Math.max(pauseUntil, await fail(alert, outcome, now));
    }
    if (pauseUntil === 0) failuresInARow = 0;
    else {
      failuresInARow += 1;
      pausedUntil = pauseUntil;
    }
  }

  /** Puts back or gives up an alert the webhook did not take; resolves with when the webhook may be asked again. */
  async function fail(
    alert: DueAlert,
    outcome: TryOutcome & { delivered: false },
    now: number,
  ): Promise<number> {
    const leadId = alert.lead.id;
    const decision = decideAfterFailure(
      { ...outcome, attempt: alert.attempt, pendingSince: alert.pendingSince, failuresInARow, now },
      policy,
    );
    const waitedSeconds = Math.round((now - alert.pendingSince) / 1000);
    if (decision.action === 'dead') {
      await store.markDead(leadId, outcome.error);
      logger.error(
        { leadId, attempts: alert.attempt, waitedSeconds, error: outcome.error },
        'chat alert dead: admissions were not told about this lead; retry it or call the person',
      );
      return decision.pauseUntil;
    }
    await store.scheduleRetry(leadId, decision.at, outcome.error, { counted: decision.counted });
    const retryInMs = Math.round(decision.at - now);
    if (!decision.counted)
      logger.warn({ leadId, attempt: alert.attempt, retryInMs }, 'chat webhook rate limited');
    else
      logger.warn(
        { leadId, attempt: alert.attempt, waitedSeconds, error: outcome.error, retryInMs },
        'chat alert failed',
      );
    return decision.pauseUntil;
  }

  async function drain(url: string): Promise<void> {
    // Each round's alerts are all in flight at once and settled before the next claim, so stop() leaves nothing
    // claimed and unsent behind. While the webhook answers, a round takes a backlog ROUND_SIZE at a time (a lead
    // arriving alone is a round of one); while it fails, one alert at a time probes it.
    // A round short of its limit took every alert that was due: those stored since ask for another run themselves.
    while (!stopped && Date.now() >= pausedUntil) {
      const limit = failuresInARow > 0 ? 1 : ROUND_SIZE;
      const round = await store.claimDueAlerts({
        now: Date.now(),
        limit,
        leaseMs: 2 * timeoutMs + LEASE_MARGIN_MS,
      });
      if (round.length === 0) return;
      await settle(round, await Promise.all(round.map((alert) => post(url, alert))));
      if (round.length < limit) return;
    }
  }

  // Asked before `running` clears, so a lead stored meanwhile finds the worker still busy and asks for another round.
  // After an error, or when the store cannot say, the next look is a poll away.
  const nextDueAfter = async (failed: boolean): Promise<number | undefined> =>
    failed ? undefined : store.nextAlertDueAt().catch(() => undefined);

  function scheduleNext(nextDue: number | undefined): void {
    if (stopped) return;
    const now = Date.now();
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
      .then(() => (runAgain && !failed ? undefined : nextDueAfter(failed)))
      .then((nextDue) => {
        running = undefined;
        if (runAgain && !failed) {
          runAgain = false;
          run();
        } else scheduleNext(nextDue);
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
      escalator?.start();
    },
    leadStored(leadId) {
      if (!webhookUrl)
        logger.warn({ leadId }, 'lead stored without a chat alert: CHAT_WEBHOOK_URL is not set');
      else run();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await Promise.all([running, escalator?.stop()]);
    },
  };
}
