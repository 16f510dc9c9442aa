// The team-chat alert for one lead, as a Slack incoming-webhook message that reads well on a phone.
import type { ContextBlock, HeaderBlock, KnownBlock, MrkdwnElement, SectionBlock } from '@slack/types';
import type { FormDefinition, FormField, Site } from '../../generated/content-types.ts';
import type { StoredLead } from '../leads/lead-store.ts';

export interface ChatMessage {
  /** Shown in notifications and by clients that cannot draw blocks. */
  text: string;
  blocks: KnownBlock[];
}

// The provider is in California; admissions read the fallback time in its zone. The block text shows each reader's own.
const ALERT_TIME_ZONE = 'America/Los_Angeles';
const NAME_FIELDS = new Set(['fullName', 'firstName', 'lastName']);
const SLACK_FIELDS_PER_SECTION = 10;
const HEADER_MAX = 150;

/**
 * The fields an alert may show, derived from the definition and safe by default: never a field marked
 * pii 'health', never free text (a textarea, or a text field not marked as contact data such as a name).
 */
export function alertFields(def: FormDefinition): FormField[] {
  return def.fields.filter((field) => {
    if (field.pii === 'health') return false;
    if (field.type === 'text') return field.pii === 'contact';
    return field.type !== 'textarea';
  });
}

/** Slack mrkdwn treats these three as control characters; a visitor's '<!channel>' must stay text. */
export const escapeMrkdwn = (text: string): string =>
  text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');

/** A US number as a tap-to-call link, `<tel:+15551234567|(555) 123-4567>`; anything else as plain text. */
export function telLink(phone: string): string {
  const digits = phone.replace(/\D/g, '').replace(/^1(?=\d{10}$)/, '');
  if (digits.length !== 10) return escapeMrkdwn(phone);
  return `<tel:+1${digits}|(${digits.slice(0, 3)}) ${digits.slice(3, 6)}-${digits.slice(6)}>`;
}

/** The source page as an absolute link on the site's own origin; a path that would leave it stays plain text. */
function sourceLink(source: string, site: Site): string {
  try {
    const url = new URL(source, site.url);
    // '|' would end the URL part of a Slack link.
    if (url.origin === new URL(site.url).origin) return `<${url.href.replace(/\|/g, '%7C')}>`;
  } catch {
    // fall through: not a usable path
  }
  return escapeMrkdwn(source);
}

function personName(data: Record<string, string>, shown: Set<string>): string {
  const pick = (name: string) => (shown.has(name) ? (data[name] ?? '').trim() : '');
  return pick('fullName') || [pick('firstName'), pick('lastName')].filter(Boolean).join(' ');
}

function fieldValue(field: FormField, value: string): string {
  switch (field.type) {
    case 'tel':
      return telLink(value);
    case 'email':
      return `<mailto:${escapeMrkdwn(value).replace(/\|/g, '%7C')}|${escapeMrkdwn(value)}>`;
    case 'select':
      return escapeMrkdwn(field.options?.find((option) => option.value === value)?.label ?? value);
    default:
      return escapeMrkdwn(value);
  }
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
 * The alert for a lead, laid out for a phone: who and a tap-to-call number first, then the choices they made, where
 * they came from and when, and the lead id last (so a duplicate after a crash is recognisable). `def` is undefined when
 * the form was removed since the lead came in: the alert then shows no submitted values at all, because without the
 * definition nothing says which of them are safe to show.
 */
export function buildChatAlert(lead: StoredLead, def: FormDefinition | undefined, site: Site): ChatMessage {
  const formName = def?.name ?? lead.formId;
  const shown = def ? alertFields(def) : [];
  const shownNames = new Set(shown.map((field) => field.name));
  const name = personName(lead.data, shownNames);
  const createdAt = new Date(lead.createdAt);
  const phoneField = shown.find((field) => field.type === 'tel' && lead.data[field.name]?.trim());
  const phone = phoneField && telLink(lead.data[phoneField.name]?.trim() ?? '');

  const header: HeaderBlock = {
    type: 'header',
    text: { type: 'plain_text', text: `New lead: ${formName}`.slice(0, HEADER_MAX), emoji: false },
  };
  const who = [name && `*${escapeMrkdwn(name)}*`, phone && `Call ${phone}`].filter(Boolean).join('\n');
  const whoBlock: SectionBlock[] = who ? [{ type: 'section', text: mrkdwn(who) }] : [];

  const fields: MrkdwnElement[] = [];
  for (const field of shown) {
    const value = (lead.data[field.name] ?? '').trim();
    if (value && !NAME_FIELDS.has(field.name) && field !== phoneField)
      fields.push(labelled(field.label, fieldValue(field, value)));
  }
  fields.push(labelled('Source page', sourceLink(lead.source, site)));
  fields.push(labelled('Received', received(createdAt)));
  const sections: SectionBlock[] = [];
  for (let i = 0; i < fields.length; i += SLACK_FIELDS_PER_SECTION)
    sections.push({ type: 'section', fields: fields.slice(i, i + SLACK_FIELDS_PER_SECTION) });
  const context: ContextBlock = {
    type: 'context',
    elements: [mrkdwn(`Lead ID \`${lead.id}\` · ${createdAt.toISOString()}`)],
  };

  const summary = [name && escapeMrkdwn(name), phone].filter(Boolean).join(', ');
  const text = `New lead: ${escapeMrkdwn(formName)}${summary ? ` from ${summary}` : ''} (lead ${lead.id})`;
  return { text, blocks: [header, ...whoBlock, ...sections, context] };
}
