// Which submitted values are sealed (encrypted at rest), derived from the form definition like everything else about a
// form: fields marked pii 'health' (date of birth, member ID) and every free-text field, whatever it is marked.
import type { FormDefinition, FormField } from '../../generated/content-types.ts';

export const isSealedField = (field: FormField): boolean =>
  field.pii === 'health' || field.type === 'textarea';

export const sealedNamesOf = (def: FormDefinition): Set<string> =>
  new Set(def.fields.filter(isSealedField).map((field) => field.name));

/** A valid submission's values, split into those stored as they are and those sealed. */
export function splitSubmission(
  def: FormDefinition,
  data: Record<string, string>,
): { fields: Record<string, string>; sealedFields: Record<string, string> } {
  const sealed = sealedNamesOf(def);
  const fields: Record<string, string> = {};
  const sealedFields: Record<string, string> = {};
  for (const [name, value] of Object.entries(data)) (sealed.has(name) ? sealedFields : fields)[name] = value;
  return { fields, sealedFields };
}
