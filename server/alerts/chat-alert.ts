// The team-chat alert for one lead, as a Slack incoming-webhook message that reads well on a phone.
import type {
  ActionsBlock,
  ContextBlock,
  HeaderBlock,
  KnownBlock,
  MrkdwnElement,
  SectionBlock,
} from '@slack/types';
import { personName } from '../../core/person-name.ts';
import { telHref, usPhoneDigits } from '../../core/phone.ts';
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import type { StoredLead } from '../store/contract/lead-store.ts';

export interface ChatMessage {
  /** Shown in notifications and by clients that cannot draw blocks. */
  text: string;
  blocks: KnownBlock[];
}

// The provider is in California; admissions read the fallback time in its zone. The block text shows each reader's own.
const ALERT_TIME_ZONE = 'America/Los_Angeles';
const HEADER_MAX = 150;
/** The form field whose choice says how soon the person needs help; its option's label goes into the alert. */
const URGENCY_FIELD = 'urgency';

/**
 * What an alert says about the person. `none` (the default): that a request arrived, of which form, how urgent and
 * when, with a link to it in the inbox: nothing that identifies anyone, since a name beside the page someone read is
 * health information, and a chat workspace and its lock-screen notifications are no place for it. `contact` adds the
 * name and a tap-to-call number, for a chat vendor that has signed a business associate agreement (CHAT_ALERT_DETAIL).
 */
export const ALERT_DETAILS = ['none', 'contact'] as const;
export type AlertDetail = (typeof ALERT_DETAILS)[number];

/** Slack mrkdwn treats these three as control characters; a visitor's '<!channel>' must stay text. */
export const escapeMrkdwn = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A US number as a tap-to-call link, `<tel:+15551234567|(555) 123-4567>`; anything else as plain text. */
export function telLink(phone: string): string {
  const digits = usPhoneDigits(phone);
  const href = telHref(phone);
  if (digits === null || href === null) return escapeMrkdwn(phone);
  return `<${href}|(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}>`;
}

/** The lead's own page in the inbox (server/staff/), on the site's origin. */
export const inboxLink = (leadId: string, site: Site): string =>
  new URL(`/staff/leads/${encodeURIComponent(leadId)}`, site.url).href;

/** The label of the lead's urgency choice, when its form asks for one and the person chose. */
function urgencyOf(lead: StoredLead, def: FormDefinition | undefined): string | undefined {
  const field = def?.fields.find(
    (candidate) => candidate.name === URGENCY_FIELD && candidate.type === 'select',
  );
  const value = lead.data[URGENCY_FIELD]?.trim();
  if (!field || !value) return undefined;
  return field.options?.find((option) => option.value === value)?.label ?? value;
}

const mrkdwn = (text: string): MrkdwnElement => ({ type: 'mrkdwn', text });
const labelled = (label: string, value: string): MrkdwnElement =>
  mrkdwn(`*${escapeMrkdwn(label)}*\n${value}`);

// Made once: building a formatter costs far more than formatting with it.
const FALLBACK_TIME = new Intl.DateTimeFormat('en-US', {
  weekday: 'short',
  month: 'short',
  day: 'numeric',
  year: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: ALERT_TIME_ZONE,
  timeZoneName: 'short',
});

function received(at: Date): string {
  const human = FALLBACK_TIME.format(at);
  // Slack renders <!date^...> in each reader's time zone; the part after | is the fallback.
  return `<!date^${Math.floor(at.getTime() / 1000)}^{date_short_pretty} at {time}|${human}>`;
}

/**
 * The alert for a lead, laid out for a phone: a request of which form, how urgent, when, and a button to open it in the
 * inbox; the lead id last (so a duplicate after a crash is recognisable). With `detail: 'contact'` the name and a
 * tap-to-call number come first. `lead.data` holds every value opened: this is the one place that decides which of
 * them may leave the server. `def` is undefined when the form was removed since the lead came in.
 */
export function buildChatAlert(
  lead: StoredLead,
  def: FormDefinition | undefined,
  site: Site,
  detail: AlertDetail = 'none',
): ChatMessage {
  const formName = def?.name ?? lead.formId;
  const createdAt = new Date(lead.createdAt);
  const urgency = urgencyOf(lead, def);
  const link = inboxLink(lead.id, site);

  const header: HeaderBlock = {
    type: 'header',
    text: { type: 'plain_text', text: `New request: ${formName}`.slice(0, HEADER_MAX), emoji: false },
  };
  let who = '';
  if (detail === 'contact' && def) {
    const name = personName(lead.data);
    const phoneField = def.fields.find((field) => field.type === 'tel' && lead.data[field.name]?.trim());
    const phone = phoneField && telLink(lead.data[phoneField.name]?.trim() ?? '');
    who = [name && `*${escapeMrkdwn(name)}*`, phone && `Call ${phone}`].filter(Boolean).join('\n');
  }
  const whoBlock: SectionBlock[] = who ? [{ type: 'section', text: mrkdwn(who) }] : [];
  const fields = [
    ...(urgency ? [labelled('Urgency', escapeMrkdwn(urgency))] : []),
    labelled('Received', received(createdAt)),
  ];
  const open: ActionsBlock = {
    type: 'actions',
    elements: [
      {
        type: 'button',
        text: { type: 'plain_text', text: 'Open lead', emoji: false },
        url: link,
        style: 'primary',
        action_id: 'open-lead',
      },
    ],
  };
  const context: ContextBlock = {
    type: 'context',
    elements: [mrkdwn(`Lead ID \`${lead.id}\` · ${createdAt.toISOString()}`)],
  };

  const summary = [escapeMrkdwn(formName), urgency && escapeMrkdwn(urgency)].filter(Boolean).join(', ');
  const text = `New request: ${summary}. Open lead: <${link}> (lead ${lead.id})`;
  return { text, blocks: [header, ...whoBlock, { type: 'section', fields }, open, context] };
}
