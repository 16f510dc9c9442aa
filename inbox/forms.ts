// The site's lead forms as the inbox needs them, read from their one definition (site/forms/<id>.json): their
// names for the form filter.
import type { FormDefinition } from '../generated/content-types.ts';

const names = import.meta.glob<FormDefinition['name']>('../site/forms/*.json', {
  eager: true,
  import: 'name',
});
const idOf = (file: string) => file.replace(/^.*\/|\.json$/g, '');

/** Every form, by name. */
export const FORMS: { id: string; name: string }[] = Object.entries(names)
  .map(([file, name]) => ({ id: idOf(file), name }))
  .sort((a, b) => a.name.localeCompare(b.name));
