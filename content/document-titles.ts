// What staff call a document: a page by its title (its name if it has none, its address if it cannot be read), the
// site's documents by what they hold. The studio's list, the editor online and a change set's page all name them so.
import { kindOf } from './kinds.ts';
import { pagePath } from '../core/page-paths.ts';

const SITE_TITLES: Record<string, string> = {
  'site/site.json': 'Site: header, footer and phone lines',
  'site/redirects.json': 'Redirects',
  'site/programs.json': 'Program catalogue',
};

/** The title of document `file` (content-root relative) whose parsed value is `data` (undefined: unreadable). */
export function documentTitle(file: string, data: unknown): string {
  const fixed = SITE_TITLES[file];
  if (fixed) return fixed;
  if (typeof data === 'object' && data !== null) {
    const record = data as Record<string, unknown>;
    for (const key of ['title', 'name']) {
      const value = record[key];
      if (typeof value === 'string' && value !== '') return value;
    }
  }
  return kindOf(file) === 'page' ? pagePath(file) : file;
}

/** documentTitle of a document's JSON text. */
export function documentTitleOf(file: string, text: string | null): string {
  try {
    return documentTitle(file, text === null ? undefined : (JSON.parse(text) as unknown));
  } catch {
    // A stored document is always valid JSON; this only guards a hand-edited store.
    return documentTitle(file, undefined);
  }
}
