// One lead in the list: a card on a phone, a row of columns on a wide screen (inbox.css), the same markup for both.
// `asOf`: the screen is not current (signed out, or the stream lost): the wait is told as it was then, with the time,
// and the received time as a time, never "just now".
import { Anchor, Badge, Text, Tooltip } from '@mantine/core';
import { IconPhone } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { STATUS_LABELS, type ListedLead } from '../../contracts/staff-api.ts';
import { api, leadPath } from '../api.ts';
import { ClaimButton } from '../desk/ClaimButton.tsx';
import { age, dueLine, exactTime, timeAgo } from '../format.ts';
import { clockTime } from '../desk/currency.ts';

// Urgency labels come from each form's definition; these words are what make one look pressing.
const PRESSING = /\b(immediate|urgent|today|now|asap|crisis|emergency)\b/i;

export function Received({ iso, now, stale = false }: { iso: string; now?: number; stale?: boolean }) {
  return (
    <Tooltip label={exactTime(iso)} events={{ hover: true, focus: true, touch: true }}>
      <time dateTime={iso} tabIndex={0} className="inbox-time" aria-label={`Received ${exactTime(iso)}`}>
        {stale ? exactTime(iso) : timeAgo(iso, now)}
      </time>
    </Tooltip>
  );
}

export function UrgencyBadge({ label }: { label: string | null }) {
  if (!label) return null;
  const pressing = PRESSING.test(label);
  return (
    <Badge color={pressing ? 'red' : 'gray'} variant={pressing ? 'filled' : 'light'} className="inbox-badge">
      {label}
    </Badge>
  );
}

/** "Also wrote 35 min ago (Contacted)": the same person's other leads, each a link. */
export function RelatedLeads({
  lead,
  now,
  stale = false,
}: {
  lead: Pick<ListedLead, 'relatedLeads'>;
  now: number;
  /** Not current: when, as a time ("at 5:23 AM"), never "just now". */
  stale?: boolean;
}) {
  if (lead.relatedLeads.length === 0) return null;
  return (
    <Text size="sm" component="span" className="inbox-lead-related">
      Also wrote{' '}
      {lead.relatedLeads.slice(0, 1).map((other, i) => (
        <span key={other.id}>
          {i > 0 && ', '}
          <Anchor component={Link} to={leadPath(other.id)}>
            {`${stale ? `at ${clockTime(Date.parse(other.createdAt))}` : timeAgo(other.createdAt, now)} (${STATUS_LABELS[other.status]})`}
          </Anchor>
        </span>
      ))}
      {lead.relatedLeads.length > 1 && ` and ${lead.relatedLeads.length - 1} more`}
    </Text>
  );
}

export function LeadCard({
  lead,
  now,
  fresh = false,
  onChanged,
  asOf,
}: {
  lead: ListedLead;
  now: number;
  /** Arrived since the list was opened: highlighted. */
  fresh?: boolean;
  onChanged?: (lead: ListedLead) => void;
  /** The screen is not current: the last time it was (epoch ms). */
  asOf?: number;
}) {
  const stale = asOf !== undefined;
  const at = asOf ?? now;
  const due = dueLine(lead, at);
  // Counted on this clock, as the wait is: it ticks with the list (the server's ageSeconds is as of the answer).
  const ageSeconds = Math.max(0, (at - Date.parse(lead.createdAt)) / 1000);
  return (
    <li
      className="inbox-lead"
      data-fresh={fresh || undefined}
      data-overdue={due?.overdue || undefined}
      data-stale={stale || undefined}
    >
      <span className="inbox-lead-received">
        <Received iso={lead.createdAt} now={at} stale={stale} />
      </span>
      <span className="inbox-lead-name">
        <Anchor component={Link} to={leadPath(lead.id)} fw={700}>
          {lead.name || 'No name given'}
        </Anchor>
      </span>
      <span className="inbox-lead-phone">
        {lead.tel ? (
          <Anchor
            href={lead.tel}
            className="inbox-tel"
            aria-label={`Call ${lead.phone}`}
            onClick={() => api.recordCall(lead.id)}
          >
            <IconPhone size={18} aria-hidden />
            {lead.phone}
          </Anchor>
        ) : (
          <Text component="span">{lead.phone || 'No phone'}</Text>
        )}
      </span>
      <span className="inbox-lead-badges">
        {/* Beside the badges, not under the name: one row less, four cards and more to a phone screen. */}
        <Text size="sm" c="dimmed" component="span" className="inbox-lead-form">
          {lead.formName}
        </Text>
        <UrgencyBadge label={lead.urgency} />
        <Badge variant="outline" color="gray" className="inbox-badge">
          {STATUS_LABELS[lead.status]}
        </Badge>
      </span>
      <Text component="span" size="sm" className="inbox-lead-age" fw={due?.overdue ? 700 : undefined}>
        {due ? due.text : `${age(ageSeconds)} old`}
        {lead.attempts > 0 && ` · ${lead.attempts} ${lead.attempts === 1 ? 'call' : 'calls'}`}
        {stale && ` (at ${clockTime(at)})`}
      </Text>
      <span className="inbox-lead-owner">
        <ClaimButton lead={lead} onChanged={(detail) => onChanged?.({ ...lead, ...detail })} compact />
      </span>
      <RelatedLeads lead={lead} now={at} stale={stale} />
    </li>
  );
}
