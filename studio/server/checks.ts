// Validation for the studio: exactly the build's checks and messages (content/validate/), for a document that may
// not be saved yet. Each problem comes with its code, and where the validator knows the value meant (its "did you
// mean", or for a link that leads nowhere the closest page, redirect or anchor), a suggestion and the fix as data,
// which the editor offers as one click.
import { join } from 'node:path';
import { pagePath } from '../../core/page-paths.ts';
import type { ProblemCode, ProblemFix } from '../../content/validate/problems.ts';
import { pageAnchors, siteIndex } from '../../content/validate/link-rules.ts';
import { validateDocumentText } from '../../content/validate/validate-content.ts';
import { CONTENT } from './documents.ts';

export type StudioError = {
  code: ProblemCode;
  pointer: string;
  message: string;
  suggestion?: string;
  fix?: ProblemFix;
};

/** The build's errors for `document` as if saved at `file` (path in the content root), with suggestions. */
export function checkDocument(file: string, document: unknown): StudioError[] {
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const index = siteIndex(CONTENT);
  if (file.startsWith('pages/')) index.pages.set(pagePath(file), pageAnchors(document));
  const absolute = join(CONTENT.root, file);
  return validateDocumentText(CONTENT, absolute, text, index).map(
    ({ code, pointer, message, suggestion, fix }) => ({
      code,
      pointer,
      message,
      ...(suggestion === undefined ? {} : { suggestion }),
      ...(fix === undefined ? {} : { fix }),
    }),
  );
}
