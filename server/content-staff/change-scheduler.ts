// Scheduled publishes (issue #28, item 5): the server runs them at their time, on a timer, never on a visit. Each tick
// claims one due schedule with a lease (PostgreSQL: FOR UPDATE SKIP LOCKED, so one instance runs it; an instance that
// dies mid-publish lets another take it when the lease ends) and publishes it as the publisher who scheduled it, with
// the approvals it must still hold. A failure is kept on the change set (GET /changes/<id>), makes /healthz degraded
// (http/health-check.ts) and is told to the team chat: which change set and why, never patient data (content only).
import type { KnownBlock } from '@slack/types';
import { escapeMrkdwn, type ChatMessage } from '../alerts/chat-alert.ts';
import { postJson } from '../alerts/webhook-post.ts';
import type { ChangeSet } from '../store/contract/change-store.ts';
import { ChangeRefusal, publishChange, type ContentContext } from './publish-change.ts';

/** Between two looks for a due schedule. */
export const SCHEDULE_TICK_MS = 15_000;
/** A claimed schedule is another instance's to take after this long: longer than any publish's build. */
export const SCHEDULE_LEASE_MS = 10 * 60_000;

export interface ChangeSchedulerOptions {
  context: ContentContext;
  /** CHAT_WEBHOOK_URL; none: a failure is only logged, kept and shown by /healthz. */
  webhookUrl?: string;
  /** STAFF_ORIGIN, for the link to the change set. */
  origin: string;
  tickMs?: number;
  leaseMs?: number;
  timeoutMs?: number;
}

/** The chat message for a failed scheduled publish: the set's title and id, why, and a link; no patient data. */
export function scheduleFailedMessage(set: ChangeSet, why: string, origin: string): ChatMessage {
  const sentence = `The scheduled publish of the change set "${set.title}" failed: ${why}`;
  // The change set's page in the staff app (inbox/router.tsx: /changes/$id).
  const link = `${origin}/staff/changes/${encodeURIComponent(set.id)}`;
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `:warning: ${escapeMrkdwn(sentence)} <${link}|Open it>` },
    },
  ];
  return { text: `${sentence} Open it: ${link}`, blocks };
}

/** Why a publish failed, in words for staff, on one line. */
function reasonOf(error: unknown): string {
  if (error instanceof ChangeRefusal) {
    const missing = error.extra.missing;
    const conflicts = error.extra.conflicts;
    if (Array.isArray(missing)) return `${error.message} (missing: ${missing.join(', ')})`;
    if (Array.isArray(conflicts)) return `${error.message} (${conflicts.length} field(s))`;
    return error.message.split('\n').slice(0, 3).join(' ');
  }
  return 'the store or the build failed; see the server log';
}

export function startChangeScheduler(options: ChangeSchedulerOptions) {
  const { context } = options;
  const { changes, audit, logger } = context;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = false;

  async function tell(set: ChangeSet, why: string): Promise<void> {
    if (!options.webhookUrl) return;
    const message = scheduleFailedMessage(set, why, options.origin);
    try {
      const reply = await postJson(options.webhookUrl, JSON.stringify(message), options.timeoutMs ?? 5000);
      if (reply.status < 200 || reply.status >= 300) throw new Error(`HTTP ${reply.status}`);
    } catch (error) {
      logger.warn({ err: (error as Error).message, change: set.id }, 'schedule failure not told to chat');
    }
  }

  /** Runs every due schedule, one at a time. */
  async function tick(): Promise<void> {
    for (;;) {
      const set = await changes.claimDueSchedule(context.now(), options.leaseMs ?? SCHEDULE_LEASE_MS);
      if (!set?.schedule) return;
      const actor = set.schedule.by;
      try {
        const published = await publishChange(context, set.id, actor);
        await changes.finishSchedule(set.id, { error: null });
        logger.info({ change: set.id, release: published.release }, 'scheduled publish done');
      } catch (error) {
        const why = reasonOf(error);
        if (!(error instanceof ChangeRefusal))
          logger.error({ err: (error as Error).message, change: set.id }, 'scheduled publish failed');
        await changes.finishSchedule(set.id, { error: why });
        await audit.append({
          actor,
          action: 'change-schedule-failed',
          detail: `${set.id} ${why}`.slice(0, 300),
        });
        await tell(set, why);
      }
    }
  }

  const next = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = tick()
        .catch((error: unknown) => logger.error({ err: (error as Error).message }, 'schedule tick failed'))
        .finally(next);
    }, options.tickMs ?? SCHEDULE_TICK_MS);
    timer.unref();
  };
  next();

  return {
    tick,
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
