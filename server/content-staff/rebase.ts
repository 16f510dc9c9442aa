// Rebasing a change set onto the live content, field by field (issue #28, item 5): for each document, its base (the
// live text when the set first edited it), the live text now, and the set's text, merged by the studio's own three-way
// merge (content/merge/three-way.ts: array items paired by id and content). A field changed on one side only takes
// that side's value; a field changed on both sides to different values is a conflict, named by its JSON pointer, and
// the publish stops for the editor to decide: a change is never silently dropped. Pure.
import type { Json } from '../../content/json-pointer.ts';
import { mergeThreeWay } from '../../content/merge/three-way.ts';

export interface Conflict {
  path: string;
  pointer: string;
}

export type DocumentRebase = { text: string | null; conflicts: string[] };

const parse = (text: string): Json => JSON.parse(text) as Json;

/**
 * One document rebased: `base` the text the set started from (null: it did not exist), `live` the text live now
 * (null: none), `ours` the set's (null: deleted). Unchanged live keeps the set's text as typed.
 */
export function rebaseDocument(
  base: string | null,
  live: string | null,
  ours: string | null,
): DocumentRebase {
  if (live === base) return { text: ours, conflicts: [] };
  if (ours === base || ours === live) return { text: live, conflicts: [] };
  // Made on both sides, or deleted on one and changed on the other: the whole document is the field both changed.
  if (base === null || live === null || ours === null) return { text: ours, conflicts: [''] };
  const { merged, conflicts } = mergeThreeWay(parse(base), parse(ours), parse(live));
  return { text: `${JSON.stringify(merged, null, 2)}\n`, conflicts: conflicts.map(({ pointer }) => pointer) };
}
