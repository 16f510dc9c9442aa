// Times as staff read them: relative ("5 minutes ago") with the exact local time beside it, and the list's date
// filters turned from the staff member's local calendar dates into the API's instants.
const relative = new Intl.RelativeTimeFormat('en-US', { numeric: 'auto' });
const exact = new Intl.DateTimeFormat('en-US', { dateStyle: 'medium', timeStyle: 'short' });

const UNITS: [Intl.RelativeTimeFormatUnit, number][] = [
  ['day', 86_400],
  ['hour', 3_600],
  ['minute', 60],
];

/** "just now", "12 minutes ago", "yesterday", "3 days ago". */
export function timeAgo(iso: string, now = Date.now()): string {
  const seconds = Math.round((Date.parse(iso) - now) / 1000);
  for (const [unit, size] of UNITS)
    if (Math.abs(seconds) >= size) return relative.format(Math.trunc(seconds / size), unit);
  return 'just now';
}

export const exactTime = (iso: string): string => exact.format(new Date(iso));

/** A lead's age as a short duration: "45 min", "3 h", "2 d". */
export function age(seconds: number): string {
  if (seconds < 3_600) return `${Math.max(0, Math.floor(seconds / 60))} min`;
  if (seconds < 86_400) return `${Math.floor(seconds / 3_600)} h`;
  return `${Math.floor(seconds / 86_400)} d`;
}

/**
 * The instant a local calendar date (`YYYY-MM-DD`, as a date input gives it) starts, or the start of the day after
 * it (`endOf`: the API's `to` is exclusive, so "to March 3" includes all of March 3).
 */
export function localDayStart(date: string, endOf = false): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const [, year, month, day] = match.map(Number) as [number, number, number, number];
  return new Date(year, month - 1, day + (endOf ? 1 : 0)).toISOString();
}

/** Whole minutes between two instants, at least 0. */
const minutesBetween = (from: number, to: number) => Math.max(0, Math.floor((to - from) / 60_000));

/**
 * Where a lead stands against its promise, as the card says it: "waiting 14 min, due in 1 min", "overdue 3 min",
 * "callback due in 8 min"; null once nothing is due. `overdue` paints it red.
 */
export function dueLine(
  lead: { createdAt: string; dueAt: string; due: boolean; attempts: number },
  now: number,
): { text: string; overdue: boolean } | null {
  if (!lead.due) return null;
  const due = Date.parse(lead.dueAt);
  const waited = minutesBetween(Date.parse(lead.createdAt), now);
  const callback = lead.attempts > 0;
  if (now >= due)
    return { text: `${callback ? 'callback ' : ''}overdue ${minutesBetween(due, now)} min`, overdue: true };
  // Rounded: a lead just in, 15 minutes from its promise, reads "due in 15 min", not 16 or 14.
  const left = Math.max(1, Math.round((due - now) / 60_000));
  const duePart = `due in ${left < 120 ? `${left} min` : age(left * 60)}`;
  return { text: callback ? `callback ${duePart}` : `waiting ${waited} min, ${duePart}`, overdue: false };
}
