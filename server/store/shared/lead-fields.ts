// What the form definition says about a lead's values for the store: every value is sealed (encrypted at rest), so
// the one thing left to derive is which values search may find a lead by. Names: the usual name fields, and any text
// field marked as contact data; phones: tel fields; e-mail: email fields.
import type { FormDefinition } from '../../../generated/content-types.ts';

export type SearchKind = 'name' | 'phone' | 'email';

const NAME_FIELDS = new Set(['fullName', 'firstName', 'lastName']);

/**
 * Field name to how it is searched, for the fields of `def` that search uses. A lead of a form no longer defined is
 * searched by the field names alone (the name fields, `phone`, `email`).
 */
export function searchKindsOf(def: FormDefinition | undefined): (field: string) => SearchKind | undefined {
  if (!def)
    return (field) =>
      NAME_FIELDS.has(field) ? 'name' : field === 'phone' ? 'phone' : field === 'email' ? 'email' : undefined;
  const kinds = new Map<string, SearchKind>();
  for (const field of def.fields) {
    if (field.type === 'tel') kinds.set(field.name, 'phone');
    else if (field.type === 'email') kinds.set(field.name, 'email');
    else if (NAME_FIELDS.has(field.name) || (field.type === 'text' && field.pii === 'contact'))
      kinds.set(field.name, 'name');
  }
  return (field) => kinds.get(field);
}
