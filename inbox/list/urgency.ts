// How pressing a lead's urgency is, to sort by it in the browser: urgency is sealed in the store (encrypted, like every
// answer of the person), so the server cannot order by it, and the list sorts the leads it has loaded. The rank is the
// choice's place in its form's own options ("Immediate" before "Urgent" before "Planning"), read from the form's one
// definition (site/forms/<id>.json); a lead without one comes last.
import type { FormDefinition } from '../../generated/content-types.ts';
import type { ListedLead } from '../../contracts/staff-api.ts';

const fields = import.meta.glob<FormDefinition['fields']>('../../site/forms/*.json', {
  eager: true,
  import: 'fields',
});

/** Each form's urgency labels, most pressing first, by form id. */
const RANKS = new Map(
  Object.entries(fields).map(([file, formFields]) => [
    file.replace(/^.*\/|\.json$/g, ''),
    (formFields.find((field) => field.name === 'urgency')?.options ?? []).map((option) => option.label),
  ]),
);

/** 0 for a form's most pressing choice, then 1, 2…; Infinity without one. */
export function urgencyRank(lead: Pick<ListedLead, 'formId' | 'urgency'>): number {
  if (lead.urgency === null) return Number.POSITIVE_INFINITY;
  const rank = RANKS.get(lead.formId)?.indexOf(lead.urgency) ?? -1;
  return rank === -1 ? Number.POSITIVE_INFINITY : rank;
}
