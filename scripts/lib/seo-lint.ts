// `npm run validate`'s warnings about how pages will look in search results (content/validate/seo-warnings.ts), read
// from the checkout's pages and placed at their line and column.
import { relative } from 'node:path';
import { parse, type Mapping } from 'json-source-map';
import { ROOT, contentPaths } from '../../content/paths.ts';
import { withFormPromises } from '../../content/validate/promise-rules.ts';
import { readContent, type ContentDocument } from '../../content/validate/validate-content.ts';
import { seoWarningsOf, type SeoFields } from '../../content/validate/seo-warnings.ts';

const CONTENT = contentPaths(ROOT);

export { SEO_LENGTHS } from '../../content/validate/seo-warnings.ts';

export interface SeoPage extends SeoFields {
  /** 1-based line and column of a field's value, by JSON pointer ('/title'), when the source is known. */
  at?: (pointer: '/title' | '/description') => { line: number; column: number } | undefined;
}

/** Every warning about the pages' titles and descriptions, in file order, as `file:line:col  /pointer  warning: …`. */
export function seoWarnings(pages: readonly SeoPage[]): string[] {
  const byFile = new Map(pages.map((page) => [page.file, page]));
  return seoWarningsOf(pages).map(({ file, pointer, message }) => {
    const position = byFile.get(file)?.at?.(pointer);
    return `${file}:${position?.line ?? 1}:${position?.column ?? 1}  ${pointer}  warning: ${message}`;
  });
}

/** Every page document under pages/ that parses and has a string title and description, with source positions. */
export function pageDocuments(documents: readonly ContentDocument[] = readContent(CONTENT)): SeoPage[] {
  const pages: SeoPage[] = [];
  for (const { file, source, data } of documents) {
    // An unparsable document is left out: the validator reports it itself.
    if (relative(CONTENT.pagesDir, file).startsWith('..') || typeof data !== 'object' || data === null)
      continue;
    const { title, description } = data as { title?: unknown; description?: unknown };
    if (typeof title !== 'string' || typeof description !== 'string') continue;
    // Positions need a second, slower parse: done only for a page that gets a warning.
    let pointers: Record<string, Mapping> | undefined;
    pages.push({
      file: relative(ROOT, file).split('\\').join('/'),
      // As search results show them: a form's promise in words, not its token.
      title: withFormPromises(CONTENT, title),
      description: withFormPromises(CONTENT, description),
      at: (pointer) => {
        pointers ??= parse(source).pointers;
        const value = pointers[pointer]?.value;
        return value && { line: value.line + 1, column: value.column + 1 };
      },
    });
  }
  return pages;
}
