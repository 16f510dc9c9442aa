// The admissions desk's rules both stores follow: what a status does to a lead's due time, the terms that say two
// leads are the same person, and the cursor of the "needs action" queue.
import { SETTLED_STATUSES, type CallOutcome, type LeadStatus } from '../../../contracts/staff-api.ts';
import type { OverdueLead } from '../contract/inbox.ts';
import { InboxQueryError } from './inbox-query.ts';
import { hashTerm } from './search-terms.ts';
import type { Sealer } from './sealing.ts';

/**
 * A status's effect on the lead's due time and first contact: a settled status (contacted and after) leaves nothing due,
 * and every one but `closed` and `not-reached` says the person was reached; new or not reached is due again (at `now`
 * if nothing was due). Both stores write it in one UPDATE:
 * `due_at = CASE WHEN settled THEN NULL ELSE coalesce(due_at, now) END`,
 * `first_contact_at = CASE WHEN reached THEN coalesce(first_contact_at, now) ELSE first_contact_at END`.
 */
export function statusEffect(status: LeadStatus): { settled: boolean; reached: boolean } {
  return {
    settled: SETTLED_STATUSES.includes(status),
    reached: status === 'contacted' || status === 'admitted' || status === 'referred',
  };
}

/**
 * A call's effect beyond its status (the status may be the lead's already, a second call that reached them): what is
 * due after it (a callback's time; nothing once reached or closed; unchanged after no answer), and whether it reached
 * the person (their first contact, if it is the first).
 */
export function callEffect(
  outcome: CallOutcome,
  callbackAt: string | undefined,
): { due: { to: string | null } | undefined; reached: boolean } {
  if (outcome === 'callback') return { due: { to: callbackAt ?? null }, reached: true };
  if (outcome === 'no-answer' || outcome === 'voicemail') return { due: undefined, reached: false };
  return { due: { to: null }, reached: outcome === 'reached' };
}

const TEN_DIGITS = (text: string): string | undefined => {
  const digits = text.replace(/\D/g, '');
  const ten = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
  return ten.length === 10 && /^[\d\s().+-]+$/.test(text.trim()) ? ten : undefined;
};

/**
 * The keyed hashes (under every key of the ring) of a lead's full phone numbers and e-mail addresses, as search-terms.ts
 * writes them: "(415) 555-0142" and "415-555-0142" give one term. The store keeps of these only the ones the lead
 * itself was indexed under, so a value that merely looks like a number (a member id) links nothing.
 */
export function contactTerms(fields: Record<string, string>, sealer: Sealer): string[] {
  const terms = new Set<string>();
  for (const value of Object.values(fields)) {
    const ten = TEN_DIGITS(value);
    if (ten) terms.add(`p:${ten}`);
    const email = value.trim().toLowerCase();
    if (/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) terms.add(`e:${email}`);
  }
  return sealer.indexKeys().flatMap((key) => [...terms].map((term) => hashTerm(key, term)));
}

/** The queue's cursor: the last row's due time and id. */
export const encodeDueCursor = (row: { due_at: string | null; id: string }): string =>
  Buffer.from(JSON.stringify(['due', row.due_at ?? '', row.id])).toString('base64url');

export function decodeDueCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (
      Array.isArray(value) &&
      value.length === 3 &&
      value[0] === 'due' &&
      typeof value[1] === 'string' &&
      typeof value[2] === 'string'
    )
      return [value[1], value[2]];
  } catch {
    // Answered below.
  }
  throw new InboxQueryError('not a cursor of this queue');
}

/** A lead taken for escalation, as both stores return it. */
export interface OverdueRow {
  id: string;
  form_id: string;
  due_at: string;
  promised_at: string | null;
}

/** What fell due: the promise when the due time is the promised one, else a callback. */
export const overdueOf = (row: OverdueRow): OverdueLead => ({
  id: row.id,
  formId: row.form_id,
  dueAt: row.due_at,
  callback: row.promised_at !== null && row.promised_at !== row.due_at,
});

/** ISO 8601 instant `days` before `now`, for the related leads' window. */
export const daysBefore = (now: number, days: number): string =>
  new Date(now - days * 86_400_000).toISOString();
