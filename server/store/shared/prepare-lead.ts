// A lead prepared before either store's database sees it: its id chosen, every value sealed and its search terms
// hashed. One place, so SQLite and PostgreSQL seal and hash alike.
import type { NewLead, PreparedLead } from '../contract/lead-store.ts';
import { leadId } from './lead-id.ts';
import { sealSource, type Sealer, type TermsOf } from './sealing.ts';

/** `lead` with its id chosen from `now`, every value sealed and its search terms hashed. */
export function prepareLead(lead: NewLead, sealer: Sealer, termsOf: TermsOf, now = Date.now()): PreparedLead {
  const id = leadId(now);
  return {
    id,
    formId: lead.formId,
    createdAt: new Date(now),
    source: sealSource(sealer, lead.source, id),
    // Sealed, then hashed: if a rotation's key switch falls between the two, the values carry the old key id and
    // rotate-key finds them and writes their terms again.
    sealed: JSON.stringify(sealer.sealAll(lead.fields, id)),
    terms: termsOf(lead.formId, lead.fields),
    idempotencyKey: lead.idempotencyKey,
    fingerprints: lead.fingerprint === undefined ? [] : [lead.fingerprint].flat(),
  };
}
