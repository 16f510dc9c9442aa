import type { FormDefinition } from '../../generated/content-types.ts';
import { siteData } from '../site-data.ts';

// Form definitions are site data (renderer/site-data.ts), keyed by file name: given at run time, not bundled.
export function formDefinition(formId: string): FormDefinition {
  const definition = siteData().forms[formId];
  // The validator rejects unknown form ids before a build, so this only fires on a broken document.
  if (!definition) throw new Error(`Unknown form "${formId}": no site/forms/${formId}.json`);
  return definition;
}
