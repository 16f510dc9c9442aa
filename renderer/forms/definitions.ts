import type { FormDefinition } from '../../generated/content-types.ts';

// Form definitions are small and used on most pages: bundled with the client, keyed by file name.
const files = import.meta.glob<FormDefinition>('../../site/forms/*.json', { eager: true, import: 'default' });

export const formDefinitions: Record<string, FormDefinition> = Object.fromEntries(
  Object.entries(files).map(([path, definition]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), definition]),
);

export function formDefinition(formId: string): FormDefinition {
  const definition = formDefinitions[formId];
  // The validator rejects unknown form ids before a build, so this only fires on a broken dev document.
  if (!definition) throw new Error(`Unknown form "${formId}": no site/forms/${formId}.json`);
  return definition;
}
