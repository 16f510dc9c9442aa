// The rules of the desk's forms (the call outcome, the callback time, the note, the staff invitation), written once:
// the server refuses what they refuse (server/staff/), and the inbox's forms show the same words under the field before
// sending (inbox/). Each rule answers the problem in words, or null when the value is fine, the shape @mantine/form's
// `validate` takes.
import { isCallOutcome, isStaffRole, type CallOutcome, type StaffRole } from './staff-api.ts';

export const MAX_NOTE = 5000;
/** The furthest ahead a callback may be set: two weeks. */
export const MAX_CALLBACK_MS = 14 * 24 * 60 * 60 * 1000;

export const noteRule = (text: unknown): string | null =>
  typeof text === 'string' && text.trim() !== '' && text.length <= MAX_NOTE
    ? null
    : `a note is text of 1 to ${MAX_NOTE} characters`;

export const outcomeRule = (outcome: unknown): string | null =>
  isCallOutcome(outcome) ? null : 'choose what the call came to';

/** A callback time: required with `callback` (ISO 8601, after `now`, within two weeks), refused with anything else. */
export function callbackRule(
  callbackAt: unknown,
  outcome: CallOutcome | undefined,
  now: number,
): string | null {
  if (outcome !== 'callback')
    return callbackAt === undefined || callbackAt === null || callbackAt === ''
      ? null
      : 'a callback time goes with "asked to call back" only';
  const at =
    typeof callbackAt === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(callbackAt) ? Date.parse(callbackAt) : NaN;
  if (Number.isNaN(at)) return 'give the time they asked to be called back';
  if (at <= now) return 'the callback time has passed';
  if (at > now + MAX_CALLBACK_MS) return 'a callback is at most two weeks ahead';
  return null;
}

/**
 * The call form's rules as @mantine/form's `useForm({ validate })` takes them, over the API's own values (CallRequest:
 * `callbackAt` an ISO instant): the same functions the server runs, so the words under a field are the server's.
 */
export const callFormRules = {
  outcome: (outcome: unknown): string | null => outcomeRule(outcome),
  callbackAt: (callbackAt: unknown, values: { outcome?: unknown }): string | null =>
    callbackRule(callbackAt, isCallOutcome(values.outcome) ? values.outcome : undefined, Date.now()),
};

/** The note form's rule, as `useForm({ validate })` takes it (NoteRequest's `text`). */
export const noteFormRules = { text: (text: unknown): string | null => noteRule(text) };

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const emailRule = (email: unknown): string | null =>
  typeof email === 'string' && EMAIL.test(email.trim()) ? null : 'give an e-mail address';

export const rolesRule = (roles: unknown): string | null =>
  Array.isArray(roles) && roles.length > 0 && roles.every(isStaffRole) ? null : 'choose at least one role';

/** The staff invitation an admin sends from the inbox (POST /team/invite). */
export interface InviteRequest {
  email: string;
  roles: StaffRole[];
}
