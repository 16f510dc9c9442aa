// Escalation: no lead passes its promise without the chat saying so. Every sweep takes the leads due and owned by no one
// (InboxStore.takeEscalations: each once across instances, again every ESCALATION_REPEAT_MINUTES until claimed) and
// posts one message each: which form, how late against which promise, a link to the lead. Never patient data, whatever
// CHAT_ALERT_DETAIL says: the person's name has been in no chat message yet, and lateness is no reason to start.
import type { KnownBlock } from '@slack/types';
import { promiseWords } from '../../core/promise.ts';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import type { OverdueLead } from '../store/contract/inbox.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import type { Logger } from '../logger.ts';
import { escapeMrkdwn, inboxLink, type ChatMessage } from './chat-alert.ts';
import { postJson } from './webhook-post.ts';

export const DEFAULT_REPEAT_MS = 10 * 60_000;
export const SWEEP_MS = 15_000;
/** Escalations sent per sweep at most: a backlog after an outage is told in rounds, not all at once. */
const PER_SWEEP = 20;

/** "A free consultation request" / "An insurance verification": the form's name as the subject of a sentence. */
function subject(def: FormDefinition | undefined): string {
  const name = (def?.name ?? 'request').replace(/^./, (first) => first.toLowerCase());
  return `${/^[aeiou]/i.test(name) ? 'An' : 'A'} ${name}`;
}

/** "3 min", "2 h 5 min": how late, in whole minutes (at least 1). */
function lateness(ms: number): string {
  const minutes = Math.max(1, Math.floor(ms / 60_000));
  return minutes < 60
    ? `${minutes} min`
    : `${Math.floor(minutes / 60)} h${minutes % 60 ? ` ${minutes % 60} min` : ''}`;
}

/** The message for one overdue lead: no name, no phone, no field of the form; only the form, the delay, the link. */
export function buildEscalation(
  lead: OverdueLead,
  def: FormDefinition | undefined,
  site: Site,
  now: number,
): ChatMessage {
  const late = lateness(now - Date.parse(lead.dueAt));
  const promise = lead.callback
    ? 'the callback time it was promised'
    : `its ${promiseWords(def?.promiseMinutes ?? 15)
        .replace(/s$/, '')
        .replace(' ', '-')} promise`;
  const sentence = `${subject(def)} is ${late} past ${promise}. No one has claimed it.`;
  const link = inboxLink(lead.id, site);
  const blocks: KnownBlock[] = [
    {
      type: 'section',
      text: { type: 'mrkdwn', text: `:rotating_light: ${escapeMrkdwn(sentence)} <${link}|Open lead>` },
    },
  ];
  return { text: `${sentence} Open lead: ${link}`, blocks };
}

export interface EscalatorOptions {
  store: LeadStore;
  forms: Map<string, FormDefinition>;
  site: Site;
  logger: Logger;
  webhookUrl: string;
  repeatMs?: number;
  sweepMs?: number;
  timeoutMs?: number;
}

export function createEscalator(options: EscalatorOptions) {
  const { store, forms, site, logger, webhookUrl } = options;
  const repeatMs = options.repeatMs ?? DEFAULT_REPEAT_MS;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<void> | undefined;
  let stopped = true;

  async function sweep(): Promise<void> {
    const now = Date.now();
    const overdue = await store.inbox.takeEscalations(now, repeatMs, PER_SWEEP);
    for (const lead of overdue) {
      const message = buildEscalation(lead, forms.get(lead.formId), site, now);
      try {
        const reply = await postJson(webhookUrl, JSON.stringify(message), options.timeoutMs ?? 5000);
        if (reply.status < 200 || reply.status >= 300) throw new Error(`HTTP ${reply.status}`);
        await store.audit.append({ actor: 'server', action: 'escalate', leadId: lead.id });
      } catch (error) {
        // Taken again at the next sweep, not in `repeatMs`: an escalation that did not arrive was not made.
        await store.inbox.escalationFailed(lead.id).catch(() => undefined);
        logger.warn(
          { err: (error as Error).message, lead: lead.id },
          'escalation not delivered; retried next sweep',
        );
        return;
      }
    }
  }

  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => {
      running = sweep()
        .catch((error: unknown) => logger.error({ err: (error as Error).message }, 'escalation sweep failed'))
        .finally(schedule);
    }, options.sweepMs ?? SWEEP_MS);
    timer.unref();
  };

  return {
    start() {
      stopped = false;
      schedule();
    },
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
    sweep,
  };
}
