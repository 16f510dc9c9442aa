// The promise a form makes ("will call you within 15 minutes") as one value: its definition's promiseMinutes. The
// inbox's due time (server/store/) and the validator's check of the words that state it (content/validate/) both read
// it here, so the page and the queue cannot disagree.

/** A form whose definition is unknown (a lead of a form since removed) is held to the strictest promise the site makes. */
export const FALLBACK_PROMISE_MINUTES = 15;

/** When a lead that arrived at `arrivedAt` (epoch ms) falls due under a promise of `minutes`. */
export const dueTime = (arrivedAt: number, minutes: number): number => arrivedAt + minutes * 60_000;

/** The promise in the words a page uses: "15 minutes", "1 hour", "24 hours", "2 days" (whole days only past 48 hours). */
export function promiseWords(minutes: number): string {
  const plural = (count: number, unit: string) => `${count} ${unit}${count === 1 ? '' : 's'}`;
  if (minutes % 60 !== 0) return plural(minutes, 'minute');
  const hours = minutes / 60;
  return hours > 48 && hours % 24 === 0 ? plural(hours / 24, 'day') : plural(hours, 'hour');
}

/** Where a form's `promise` words state its time: replaced by promiseWords(promiseMinutes) wherever they are shown. */
export const PROMISE_TOKEN = '{promise}';

/**
 * A form's promise words as a visitor reads them: "will call you within {promise}" with promiseMinutes 15 is "will call
 * you within 15 minutes". The time is never typed (the validator refuses a typed one), so it cannot disagree with the due
 * time the inbox gives each lead.
 */
export const promiseText = (text: string, minutes: number): string =>
  text.replaceAll(PROMISE_TOKEN, promiseWords(minutes));

/**
 * Every duration a text promises with "within": "within 15 minutes", "within 24 hours or less", "within an hour", as
 * minutes. What the validator compares with the form's value.
 */
export function promisedDurations(text: string): { words: string; minutes: number }[] {
  const found: { words: string; minutes: number }[] = [];
  const pattern = /\bwithin\s+(an?|one|\d+)\s+(minute|hour|day)s?\b/gi;
  for (const match of text.matchAll(pattern)) {
    const count = /^\d+$/.test(match[1] ?? '') ? Number(match[1]) : 1;
    const unit = (match[2] ?? '').toLowerCase();
    const minutes = count * (unit === 'minute' ? 1 : unit === 'hour' ? 60 : 1440);
    found.push({ words: match[0], minutes });
  }
  return found;
}
