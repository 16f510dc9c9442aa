// Validation for the studio: exactly the build's checks and messages (content/validate/), for a document that may
// not be saved yet. Each problem comes with its code, and where the validator knows the value meant (its "did you
// mean", or for a link that leads nowhere the closest page, redirect or anchor), a suggestion and the fix as data,
// which the editor offers as one click. Beside them, every other check `npm run check` runs on content: the
// spelling and the repeated paragraphs (errors there, so here too), and `npm run validate`'s warnings.
import { join } from 'node:path';
import { pagePath } from '../../core/page-paths.ts';
import { isObject } from '../../content/json-pointer.ts';
import type { ProblemCode, ProblemFix } from '../../content/validate/problems.ts';
import { contentPath } from '../../content/validate/document-rules.ts';
import { pageAnchors, siteIndex } from '../../content/validate/link-rules.ts';
import { repeatedParagraphs } from '../../content/validate/repeated-text.ts';
import { seoWarningsOf } from '../../content/validate/seo-warnings.ts';
import { readContent, validateDocumentText } from '../../content/validate/validate-content.ts';
import { spellingErrors } from '../../content/validate/spelling.ts';
import { CONTENT } from './documents.ts';

export type StudioError = {
  code: ProblemCode | 'misspelling';
  pointer: string;
  message: string;
  suggestion?: string;
  fix?: ProblemFix;
  /** Which check of `npm run check` found it, when not the validator (whose errors alone refuse a save). */
  check?: 'spelling' | 'repeats';
};
export type StudioWarning = { pointer: string; message: string };

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

/** The other pages as on disk, and this one as drafted: what the checks across pages compare. */
function pagesWith(file: string, document: unknown) {
  const absolute = join(CONTENT.root, file);
  const others = readContent(CONTENT).filter(
    (d) => d.file.startsWith(CONTENT.pagesDir) && d.file !== absolute,
  );
  const source = `${JSON.stringify(document, null, 2)}\n`;
  return [...others, { file: absolute, source, data: document }];
}

/**
 * What `npm run check` and `npm run validate` say about this draft beyond the validator's errors (checkDocument):
 * the spelling and repeated paragraphs (errors), and the search-result warnings. Slower (tens of milliseconds: every
 * page is read), so the editor asks for it once typing pauses, apart from the validator's answer to each keystroke.
 */
export async function gateChecks(
  file: string,
  document: unknown,
): Promise<{ errors: StudioError[]; warnings: StudioWarning[] }> {
  const errors: StudioError[] = [];
  const warnings: StudioWarning[] = [];
  if (file.startsWith('pages/') && isObject(document)) {
    const pages = pagesWith(file, document);
    for (const problem of repeatedParagraphs(CONTENT, pages))
      if (problem.file === file)
        errors.push({
          code: problem.code,
          pointer: problem.pointer,
          message: problem.message,
          check: 'repeats',
        });
    const seo = pages.flatMap(({ file: f, data }) =>
      isObject(data) && typeof data.title === 'string' && typeof data.description === 'string'
        ? [{ file: contentPath(CONTENT, f), title: data.title, description: data.description }]
        : [],
    );
    for (const warning of seoWarningsOf(seo))
      if (warning.file === file) warnings.push({ pointer: warning.pointer, message: warning.message });
  }
  errors.push(...(await spellingErrors(file, document)));
  return { errors, warnings };
}
