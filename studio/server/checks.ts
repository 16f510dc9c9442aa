// Validation for the studio: exactly the build's checks and messages (scripts/lib/validate/), for a document that
// may not be saved yet. Each error carries a suggestion the editor can offer as a one-click fix: the validator's own
// "did you mean", or for a link that leads nowhere the closest page, redirect or anchor.
import { join } from 'node:path';
import { ROOT } from '../../core/content-schemas.ts';
import { pagePath } from '../../core/page-paths.ts';
import { suggest } from '../../scripts/lib/validate/messages.ts';
import { pageAnchors, siteIndex, type SiteIndex } from '../../scripts/lib/validate/link-rules.ts';
import { validateDocumentText } from '../../scripts/lib/validate/validate-content.ts';

export type StudioError = { pointer: string; message: string; suggestion?: string };

const DID_YOU_MEAN = /did you mean "([^"]+)"\?/;
const NOWHERE = /^link "([^"]+)" leads nowhere/;
const NO_ANCHOR = /^link "([^"]+)": the page (\S+) has no section with id "([^"]+)"/;

function linkSuggestion(message: string, index: SiteIndex): string | undefined {
  const nowhere = NOWHERE.exec(message);
  if (nowhere?.[1]) {
    const [path = '', anchor] = nowhere[1].split('#');
    const meant = suggest(path, [...index.pages.keys(), ...index.redirects.keys()]);
    return meant === undefined ? undefined : anchor === undefined ? meant : `${meant}#${anchor}`;
  }
  const missing = NO_ANCHOR.exec(message);
  if (missing?.[1] && missing[2] && missing[3]) {
    const [path = ''] = missing[1].split('#');
    const meant = suggest(missing[3], [...(index.pages.get(missing[2]) ?? [])]);
    return meant === undefined ? undefined : `${path}#${meant}`;
  }
  return undefined;
}

/** The build's errors for `document` as if saved at `file` (repository path), with suggestions. */
export function checkDocument(file: string, document: unknown): StudioError[] {
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const index = siteIndex();
  if (file.startsWith('pages/')) index.pages.set(pagePath(file), pageAnchors(document));
  const absolute = join(ROOT, file);
  return validateDocumentText(absolute, text, undefined, index).map((error) => {
    const suggestion = DID_YOU_MEAN.exec(error.message)?.[1] ?? linkSuggestion(error.message, index);
    return {
      pointer: error.pointer,
      message: error.message,
      ...(suggestion === undefined ? {} : { suggestion }),
    };
  });
}
