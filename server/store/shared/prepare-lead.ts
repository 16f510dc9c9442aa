// A lead prepared before either store's database sees it: its id chosen, every value sealed and its search terms
// hashed. One place, so SQLite and PostgreSQL seal and hash alike.
import type { FormDefinition } from '../../../generated/content-types.ts';
import { dueTime, FALLBACK_PROMISE_MINUTES } from '../../../core/promise.ts';
import type { NewLead, PreparedLead } from '../contract/lead-store.ts';
import { leadId } from './lead-id.ts';
import { sealSource, type Sealer, type TermsOf } from './sealing.ts';

/** The minutes a form promises, from its definition (forms unknown to the store: the strictest promise). */
export type PromiseOf = (formId: string) => number;

export const promiseFor =
  (forms: ReadonlyMap<string, FormDefinition> | undefined): PromiseOf =>
  (formId) =>
    forms?.get(formId)?.promiseMinutes ?? FALLBACK_PROMISE_MINUTES;

/** `lead` with its id chosen from `now`, every value sealed, its search terms hashed, its promise dated. */
export function prepareLead(
  lead: NewLead,
  sealer: Sealer,
  termsOf: TermsOf,
  promiseOf: PromiseOf,
  now = Date.now(),
): PreparedLead {
  const id = leadId(now);
  return {
    promisedAt: new Date(dueTime(now, promiseOf(lead.formId))),
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
