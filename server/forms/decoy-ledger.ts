// What a bot that filled the honeypot is told: the answer a stored lead gets, down to the id. Ids are made as lead ids
// are (UUID v7), and a repeat of an Idempotency-Key gets what a repeat of a real lead gets (the same id, or 422 for
// other fields), so nothing tells a discarded submission from a stored one. Kept in memory only: bounded, and nothing
// of a bot's submission but its key and fingerprint.
import { leadId } from '../store/shared/lead-id.ts';
import { IDEMPOTENCY_TTL_MS } from '../store/shared/idempotency.ts';

// Beyond this many keys the oldest are forgotten: a bot that repeats a key after ten thousand others learns little.
const MAX_KEYS = 10_000;

export type DecoyAnswer = { id: string; conflict?: undefined } | { conflict: true };

export function decoyLedger({ maxKeys = MAX_KEYS, ttlMs = IDEMPOTENCY_TTL_MS } = {}) {
  const keys = new Map<string, { id: string; fingerprint: string; at: number }>();
  /** The id to answer, as the store would: `key` is the Idempotency-Key, `fingerprint` the submission's. */
  return (formId: string, key: string | undefined, fingerprint: string, now = Date.now()): DecoyAnswer => {
    if (key === undefined) return { id: leadId(now) };
    const name = `${formId}\u0000${key}`;
    const seen = keys.get(name);
    if (seen && now - seen.at < ttlMs)
      return seen.fingerprint === fingerprint ? { id: seen.id } : { conflict: true };
    keys.delete(name);
    // A Map keeps insertion order: the first key is the oldest.
    const oldest = keys.keys().next();
    if (keys.size >= maxKeys && !oldest.done) keys.delete(oldest.value);
    const id = leadId(now);
    keys.set(name, { id, fingerprint, at: now });
    return { id };
  };
}
