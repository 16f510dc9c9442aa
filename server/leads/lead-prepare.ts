// What both stores do to a lead before their database sees it, and how both answer a key seen before: one place, so
// SQLite and PostgreSQL seal, hash and answer repeats alike.
import { leadId } from './lead-id.ts';
import type { Sealer, TermsOf } from './lead-sealing.ts';
import type { NewLead } from './lead-store.ts';
import type { InsertResult, PreparedLead } from './lead-writes.ts';

/** `lead` with its id chosen from `now`, every value sealed and its search terms hashed. */
export function prepareLead(lead: NewLead, sealer: Sealer, termsOf: TermsOf, now = Date.now()): PreparedLead {
  const id = leadId(now);
  return {
    id,
    formId: lead.formId,
    createdAt: new Date(now),
    source: lead.source,
    // Sealed, then hashed: if a rotation's key switch falls between the two, the values carry the old key id and
    // rotate-key finds them and writes their terms again.
    sealed: JSON.stringify(sealer.sealAll(lead.fields, id)),
    terms: termsOf(lead.formId, lead.fields),
    idempotencyKey: lead.idempotencyKey,
    fingerprints: lead.fingerprint === undefined ? [] : [lead.fingerprint].flat(),
  };
}

/** A stored idempotency key, as both databases keep it. */
export interface KeyRow {
  lead_id: string;
  fingerprint: string | null;
}

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
