// What both stores do around a lead's write: prepare it before their database sees it, answer a key seen before, and
// tell who listens once it is stored. One place, so SQLite and PostgreSQL seal, hash, answer and tell alike.
import { leadId } from './lead-id.ts';
import type { Sealer, TermsOf } from './sealing.ts';
import type { NewLead } from '../sqlite/lead-store.ts';
import type { InsertResult, PreparedLead } from '../sqlite/write-ops.ts';

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

/**
 * Who hears of each lead stored (the inbox's live list, the alert worker), told alike by both stores: `tell` after the
 * commit, and only for a lead written then.
 */
export function leadListeners() {
  const listeners = new Set<(id: string) => void>();
  return {
    onLeadStored(listener: (id: string) => void): () => void {
      // Wrapped, so the same listener added twice is two subscriptions, each with its own unsubscribe.
      const entry = (id: string) => listener(id);
      listeners.add(entry);
      return () => void listeners.delete(entry);
    },
    tell(id: string): void {
      for (const listener of listeners)
        try {
          listener(id);
        } catch {
          // A listener's fault is its own: the lead is stored, and its visitor is told so.
        }
    },
  };
}
