// Warnings (never errors) about how pages will look in search results: a title or description that another page also
// uses, or one longer or shorter than what search engines show. The schema bounds what is allowed at all (title
// 10-70 characters, description 50-200); these ranges are what is shown in full, which is a judgement call per page.
import { relative } from 'node:path';
import { parse, type Mapping } from 'json-source-map';
import { ROOT, contentPaths } from '../../content/paths.ts';
import { withFormPromises } from '../../content/validate/promise-rules.ts';
import { readContent, type ContentDocument } from '../../content/validate/validate-content.ts';

const CONTENT = contentPaths(ROOT);

/**
 * Characters, as the usual guidance puts them: Google cuts titles at about 600 px (50-60 characters) and descriptions
 * at about 920 px on a desktop (about 155-160 characters); much shorter ones waste the space and tend to be rewritten.
 */
export const SEO_LENGTHS = {
  title: { min: 30, max: 60 },
  description: { min: 70, max: 160 },
} as const;

export interface SeoPage {
  /** Repo-relative path of the page document, with forward slashes. */
  file: string;
  title: string;
  description: string;
  /** 1-based line and column of a field's value, by JSON pointer ('/title'), when the source is known. */
  at?: (pointer: '/title' | '/description') => { line: number; column: number } | undefined;
}

type Field = keyof typeof SEO_LENGTHS;

/** `file:line:col  /pointer  warning: message`, like the validator's errors. */
function warning(page: SeoPage, field: Field, message: string): string {
  const position = page.at?.(`/${field}`);
  return `${page.file}:${position?.line ?? 1}:${position?.column ?? 1}  /${field}  warning: ${message}`;
}

/** Every warning about the pages' titles and descriptions, in file order. */
export function seoWarnings(pages: readonly SeoPage[]): string[] {
  const warnings: string[] = [];
  // Compared as search results show them: case and runs of spaces do not make two titles different.
  const key = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  const owners: Record<Field, Map<string, string[]>> = { title: new Map(), description: new Map() };
  for (const page of pages)
    for (const field of ['title', 'description'] as const) {
      const files = owners[field].get(key(page[field])) ?? [];
      owners[field].set(key(page[field]), [...files, page.file]);
    }

  for (const page of [...pages].sort((a, b) => a.file.localeCompare(b.file)))
    for (const field of ['title', 'description'] as const) {
      const text = page[field].trim();
      const { min, max } = SEO_LENGTHS[field];
      if (text.length > max)
        warnings.push(
          warning(page, field, `${field} is ${text.length} characters; search results show about ${max}`),
        );
      else if (text.length < min)
        warnings.push(
          warning(
            page,
            field,
            `${field} is ${text.length} characters; aim for ${min}-${max} to use the space`,
          ),
        );
      const others = (owners[field].get(key(text)) ?? []).filter((file) => file !== page.file);
      if (others.length)
        warnings.push(warning(page, field, `same ${field} as ${others.join(', ')}; each page needs its own`));
    }
  return warnings;
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
