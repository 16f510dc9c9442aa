// Who links where, over documents already read: every link (a link field, or a markdown link in text) to a page, or
// to one anchor of it. The local studio asks it of the checkout's files (studio/server/references.ts), the content API
// of a change set's site (server/content-staff/editor-routes.ts), before an anchor is changed or a page moved.
import { escapeSegment as segment } from './json-pointer.ts';

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

/** Every link in `documents` to `path` (any anchor), or only to `path#anchor` when an anchor is given. */
export function referencesIn(
  documents: Iterable<{ file: string; data: unknown }>,
  path: string,
  anchor?: string,
): Reference[] {
  const references: Reference[] = [];
  for (const { file, data } of documents) {
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
