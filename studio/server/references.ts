// Who links where: before an anchor id is changed or removed, or a page is moved, staff see every link in the other
// documents (pages, menus, redirects) that would break. The search itself is content/references.ts.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../content/paths.ts';
import { referencesIn, type Reference } from '../../content/references.ts';
import { listDocuments } from './documents.ts';

export type { Reference };

/** The checkout's documents that parse (a broken one links nowhere until it is mended). */
function* savedDocuments(): Generator<{ file: string; data: unknown }> {
  for (const { file } of listDocuments()) {
    const absolute = join(ROOT, file);
    if (!existsSync(absolute)) continue;
    try {
      yield { file, data: JSON.parse(readFileSync(absolute, 'utf8')) as unknown };
    } catch {
      continue;
    }
  }
}

/** Every link in the saved documents to `path` (any anchor), or only to `path#anchor` when an anchor is given. */
export function referencesTo(path: string, anchor?: string): Reference[] {
  return referencesIn(savedDocuments(), path, anchor);
}
