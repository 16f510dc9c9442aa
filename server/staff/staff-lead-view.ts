// Leads as the inbox app receives them (the staff API's answers, contracts/staff-api.ts): the list's row with the
// person's name, phone, tap-to-call link and urgency, and the lead page with every field under its form's label. Opened
// values: for signed-in staff only.
import type { LeadDesk, LeadDetail, ListedLead } from '../../contracts/staff-api.ts';
import type { FormDefinition } from '../../generated/content-types.ts';
import type { InboxLead, InboxRow, RelatedLead } from '../store/contract/inbox.ts';
import { personName } from '../../core/person-name.ts';
import { telHref } from '../../core/phone.ts';

type Forms = Map<string, FormDefinition>;

/** The value of the form's first tel field; a lead of a form no longer defined, its `phone`. */
function phoneOf(row: InboxRow, def: FormDefinition | undefined): string | null {
  const name = def ? def.fields.find((field) => field.type === 'tel')?.name : 'phone';
  return (name && row.fields[name]) || null;
}

/** The label of the lead's urgency choice, or null when its form asks none. */
function urgencyOf(row: InboxRow, def: FormDefinition | undefined): string | null {
  const field = def?.fields.find((candidate) => candidate.name === 'urgency');
  if (!field) return null;
  const value = row.fields.urgency;
  return field.options?.find((option) => option.value === value)?.label ?? value ?? null;
}

/** Who sent the lead and how to call them, as the list row and the lead page both show it. */
function contactOf(
  row: InboxRow,
  def: FormDefinition | undefined,
): Pick<ListedLead, 'name' | 'phone' | 'tel'> {
  const phone = phoneOf(row, def);
  return { name: personName(row.fields) || null, phone, tel: phone === null ? null : telHref(phone) };
}

/** Where the lead stands against its promise, who works it, and the same person's other leads. */
export const deskOf = (row: InboxRow, related: readonly RelatedLead[] = []): LeadDesk => ({
  dueAt: row.dueAt ?? row.promisedAt,
  due: row.dueAt !== null,
  owner: row.owner,
  attempts: row.attempts,
  related: related.map((lead) => lead.id),
  relatedLeads: related.map(({ id, createdAt, status }) => ({ id, createdAt, status })),
});

export function listItem(
  row: InboxRow,
  forms: Forms,
  now: number,
  related: readonly RelatedLead[] = [],
): ListedLead {
  const def = forms.get(row.formId);
  return {
    ...deskOf(row, related),
    id: row.id,
    createdAt: row.createdAt,
    formId: row.formId,
    formName: def?.name ?? row.formId,
    ...contactOf(row, def),
    urgency: urgencyOf(row, def),
    status: row.status,
    ageSeconds: Math.max(0, Math.floor((now - Date.parse(row.createdAt)) / 1000)),
  };
}

/** Every field under its label, in the form's order (a choice by its option's label); fields it no longer has after. */
export function leadPage(lead: InboxLead, forms: Forms, related: readonly RelatedLead[] = []): LeadDetail {
  const def = forms.get(lead.formId);
  const known = (def?.fields ?? []).filter((field) => lead.fields[field.name] !== undefined);
  const knownNames = new Set(known.map((field) => field.name));
  const contact = contactOf(lead, def);
  return {
    id: lead.id,
    createdAt: lead.createdAt,
    formId: lead.formId,
    formName: def?.name ?? lead.formId,
    name: contact.name,
    phone: contact.phone,
    tel: contact.tel,
    source: lead.source,
    status: lead.status,
    fields: [
      ...known.map((field) => {
        const value = lead.fields[field.name] ?? '';
        const option = field.options?.find((choice) => choice.value === value);
        return { name: field.name, label: field.label, value: option?.label ?? value };
      }),
      ...Object.entries(lead.fields)
        .filter(([name]) => !knownNames.has(name))
        .map(([name, value]) => ({ name, label: name, value })),
    ],
    notes: lead.notes,
    history: lead.history,
    calls: lead.calls,
    mergedInto: lead.mergedInto,
    mergedFrom: lead.mergedFrom,
    ...deskOf(lead, related),
  };
}

/** A CSV column: one label, and the fields of any form that go under it. */
export interface ExportColumn {
  label: string;
  names: string[];
}

/**
 * CSV columns for a filtered export: one per label (the same question asked by several forms, whatever each calls its
 * field), for that form or for every form in id order, each field in its form's order, a label where it first comes.
 */
export function exportColumns(forms: Forms, formId: string | undefined): ExportColumn[] {
  const defs = (formId === undefined ? [...forms.keys()].sort() : [formId])
    .map((id) => forms.get(id))
    .filter((def) => def !== undefined);
  const columns = new Map<string, string[]>();
  for (const field of defs.flatMap((def) => def.fields)) {
    const names = columns.get(field.label) ?? [];
    if (!names.includes(field.name)) names.push(field.name);
    columns.set(field.label, names);
  }
  return [...columns].map(([label, names]) => ({ label, names }));
}
