// The site's lead forms as the inbox needs them, read from their one definition (site/forms/<id>.json): their
// names for the form filter, and which of their fields hold a phone number for the lead page's call button.
import type { FormDefinition } from '../generated/content-types.ts';

const names = import.meta.glob<FormDefinition['name']>('../site/forms/*.json', {
  eager: true,
  import: 'name',
});
const fields = import.meta.glob<FormDefinition['fields']>('../site/forms/*.json', {
  eager: true,
  import: 'fields',
});
const idOf = (file: string) => file.replace(/^.*\/|\.json$/g, '');

/** Every form, by name. */
export const FORMS: { id: string; name: string }[] = Object.entries(names)
  .map(([file, name]) => ({ id: idOf(file), name }))
  .sort((a, b) => a.name.localeCompare(b.name));

/** The names of a form's phone fields. */
export function phoneFields(formId: string): string[] {
  const entry = Object.entries(fields).find(([file]) => idOf(file) === formId);
  return (entry?.[1] ?? []).filter((field) => field.type === 'tel').map((field) => field.name);
}
