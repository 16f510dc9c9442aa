// Idempotency keys, alike in both stores: how long one is kept, and the answer to a lead whose key was stored before.
import type { InsertResult } from '../contract/lead-store.ts';
import type { KeyRow } from '../contract/rows.ts';

// Long enough for any client retry (the browser retries within seconds; a person comes back within a day).
export const IDEMPOTENCY_TTL_MS = 24 * 60 * 60 * 1000;

/**
 * The answer to a lead whose key was stored before (`seen`): a repeat of that lead, or a conflict when the key came
 * with another submission. A key stored without a fingerprint (before there were any) is taken as a repeat.
 */
export function answerForKey(seen: KeyRow, fingerprints: readonly string[]): InsertResult {
  const differs = seen.fingerprint !== null && !fingerprints.includes(seen.fingerprint);
  return differs
    ? { id: seen.lead_id, replayed: true, conflict: true }
    : { id: seen.lead_id, replayed: true };
}
