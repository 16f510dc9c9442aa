// Who links where: before an anchor id is changed or removed, or a page is moved, staff see every link in the other
// documents (pages, menus, redirects) that would break.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { escapeSegment as segment } from '../../content/json-pointer.ts';
import { ROOT } from '../../content/paths.ts';
import { listDocuments } from './documents.ts';

export type Reference = { file: string; pointer: string; href: string };

const MARKDOWN_LINK = /\]\(([^)\s]+)\)/g;
const LINK_KEYS = new Set(['href', 'path', 'to', 'from']);

function linksIn(value: unknown, pointer: string, key: string, found: { pointer: string; href: string }[]) {
  if (typeof value === 'string') {
    if (LINK_KEYS.has(key) && value.startsWith('/')) found.push({ pointer, href: value });
    else
      for (const match of value.matchAll(MARKDOWN_LINK))
        if (match[1]?.startsWith('/')) found.push({ pointer, href: match[1] });
  } else if (Array.isArray(value)) value.forEach((item, i) => linksIn(item, `${pointer}/${i}`, key, found));
  else if (typeof value === 'object' && value !== null)
    for (const [k, item] of Object.entries(value)) linksIn(item, `${pointer}/${segment(k)}`, k, found);
}

/** Every link in the saved documents to `path` (any anchor), or only to `path#anchor` when an anchor is given. */
export function referencesTo(path: string, anchor?: string): Reference[] {
  const references: Reference[] = [];
  for (const { file } of listDocuments()) {
    const absolute = join(ROOT, file);
    if (!existsSync(absolute)) continue;
    let data: unknown;
    try {
      data = JSON.parse(readFileSync(absolute, 'utf8'));
    } catch {
      continue;
    }
    const found: { pointer: string; href: string }[] = [];
    linksIn(data, '', '', found);
    for (const link of found) {
      const [linkPath, linkAnchor] = link.href.split('#');
      if (linkPath !== path) continue;
      if (anchor !== undefined && linkAnchor !== anchor) continue;
      references.push({ file, ...link });
    }
  }
  return references;
}
