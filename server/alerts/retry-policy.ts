// When a chat alert is tried again, and when it is given up. Pure: the alert worker applies the decision.
//
// An alert is retried until it is delivered: never given up after a number of tries, since chat outages of hours
// happen and a lead must still reach admissions after one. The wait between tries grows, with jitter, but never beyond
// `maxMs`, so an alert arrives at most `maxMs` after chat is back. Only after `maxAgeMs` of waiting is it marked dead,
// which the health check reports. A 429 with Retry-After is the webhook asking for a pause: the pause is kept, and
// the try is not counted against the alert.

export interface RetryPolicy {
  /** First wait after a failure; doubles with each failure. */
  baseMs: number;
  /** Longest wait between two tries. */
  maxMs: number;
  /** How long after it started waiting a failing alert is marked dead. */
  maxAgeMs: number;
  /** Jitter source, [0, 1). */
  random: () => number;
}

/** What the webhook answered to one try. */
export type TryOutcome =
  | { delivered: true }
  /** `retryAfterMs`: a 429 came with a readable Retry-After. */
  | { delivered: false; error: string; retryAfterMs?: number };

export interface FailedTry {
  /** Which attempt of this alert it was (1 for the first), rate-limited tries not counted. */
  attempt: number;
  /** When the alert started waiting, epoch ms. */
  pendingSince: number;
  /** Tries of any alert that failed in a row before this one (the webhook's state, not the alert's). */
  failuresInARow: number;
  error: string;
  retryAfterMs?: number;
  now: number;
}

export type Decision =
  | {
      action: 'retry';
      /** When this alert is tried again. */
      at: number;
      /** Whether the try counts as one of the alert's attempts. */
      counted: boolean;
      /** No alert is sent before this: the webhook is down or rate limiting, so the others would fail too. */
      pauseUntil: number;
    }
  | { action: 'dead'; pauseUntil: number };

// A Retry-After beyond this is treated as a misbehaving receiver rather than obeyed for days.
const MAX_RETRY_AFTER_MS = 60 * 60 * 1000;

/** Retry-After in seconds or as an HTTP date, in milliseconds from now; undefined when absent or unreadable. */
export function parseRetryAfter(header: string | null, now = Date.now()): number | undefined {
  if (!header) return undefined;
  const trimmed = header.trim();
  const ms = /^\d+$/.test(trimmed) ? Number(trimmed) * 1000 : Date.parse(trimmed) - now;
  return Number.isNaN(ms) ? undefined : Math.min(Math.max(ms, 0), MAX_RETRY_AFTER_MS);
}

/** The wait after the nth failure: equal jitter, between half and all of min(max, base * 2^(n - 1)). */
export function backoffMs(failure: number, policy: RetryPolicy): number {
  const ceiling = Math.min(policy.maxMs, policy.baseMs * 2 ** Math.max(0, failure - 1));
  return ceiling / 2 + (policy.random() * ceiling) / 2;
}

/** What to do after a try that did not deliver. */
export function decideAfterFailure(failed: FailedTry, policy: RetryPolicy): Decision {
  const { now } = failed;
  // The pause grows with the failures in a row of the webhook, so 'Retry-After: 0' on every call cannot spin, and
  // during an outage one alert at a time probes the webhook instead of all of them.
  const pauseUntil = now + backoffMs(failed.failuresInARow + 1, policy);
  if (failed.retryAfterMs !== undefined) {
    const until = Math.max(pauseUntil, now + failed.retryAfterMs);
    return { action: 'retry', at: until, counted: false, pauseUntil: until };
  }
  const deadAt = failed.pendingSince + policy.maxAgeMs;
  if (now >= deadAt) return { action: 'dead', pauseUntil };
  // The last try falls on the alert's deadline, so it is never marked dead earlier than its age says.
  const at = Math.min(now + backoffMs(failed.attempt, policy), deadAt);
  return { action: 'retry', at, counted: true, pauseUntil };
}
