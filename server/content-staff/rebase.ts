// Rebasing a change set onto the live content, field by field (issue #28, item 5): for each document, its base (the
// live text when the set first edited it), the live text now, and the set's text. A field changed on one side only
// takes that side's value; a field changed on both sides to different values is a conflict, named by its JSON pointer,
// and the publish stops for the editor to decide: a change is never silently dropped. Arrays whose length differs on
// both sides are one field (items have no stable identity across three versions here). Pure.
import { canonical } from '../../content/claims/align.ts';
import { isObject, join } from '../../content/json-pointer.ts';

export interface Conflict {
  path: string;
  pointer: string;
}

const same = (a: unknown, b: unknown) => canonical(a) === canonical(b);

/** The three-way merge of one value; conflicts pushed to `out` by pointer. `undefined` is "absent". */
export function mergeValue(
  base: unknown,
  live: unknown,
  ours: unknown,
  pointer: string,
  out: string[],
): unknown {
  if (same(live, base)) return ours;
  if (same(ours, base) || same(ours, live)) return live;
  if (isObject(base) && isObject(live) && isObject(ours)) {
    const merged: Record<string, unknown> = {};
    // Ours' key order first, then keys only live added: the document reads as the editor left it.
    const keys = new Set([...Object.keys(ours), ...Object.keys(live), ...Object.keys(base)]);
    for (const key of keys) {
      const value = mergeValue(base[key], live[key], ours[key], join(pointer, key), out);
      if (value !== undefined) merged[key] = value;
    }
    return merged;
  }
  if (
    Array.isArray(base) &&
    Array.isArray(live) &&
    Array.isArray(ours) &&
    base.length === live.length &&
    base.length === ours.length
  )
    return base.map((item, index) => mergeValue(item, live[index], ours[index], join(pointer, index), out));
  out.push(pointer);
  return ours;
}

export type DocumentRebase = { text: string | null; conflicts: string[] };

const parse = (text: string | null): unknown => (text === null ? undefined : (JSON.parse(text) as unknown));

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
  const conflicts: string[] = [];
  const merged = mergeValue(parse(base), parse(live), parse(ours), '', conflicts);
  return {
    text: merged === undefined ? null : `${JSON.stringify(merged, null, 2)}\n`,
    conflicts,
  };
}
