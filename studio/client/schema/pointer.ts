// JSON pointers over plain JSON values, changed without mutation: every edit makes a new document, so undo keeps the
// old one as it was.

export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

export const escapeSegment = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
const unescape = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');

export const segments = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescape);
export const join = (pointer: string, segment: string | number) => `${pointer}/${escapeSegment(segment)}`;

export const isRecord = (v: unknown): v is Record<string, Json> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

export function getAt(root: unknown, pointer: string): unknown {
  let value: unknown = root;
  for (const segment of segments(pointer)) {
    if (Array.isArray(value)) value = value[Number(segment)];
    else if (isRecord(value)) value = value[segment];
    else return undefined;
  }
  return value;
}

/** `root` with the value at `pointer` replaced (undefined removes an object's key or an array's item). */
export function setAt(root: unknown, pointer: string, value: unknown): unknown {
  const [head, ...rest] = segments(pointer);
  if (head === undefined) return value;
  const tail = rest.length === 0 ? '' : `/${rest.map(escapeSegment).join('/')}`;
  if (Array.isArray(root)) {
    const copy = [...root];
    const index = Number(head);
    const next = rest.length === 0 ? value : setAt(copy[index], tail, value);
    if (next === undefined) copy.splice(index, 1);
    else copy[index] = next as Json;
    return copy;
  }
  const record = isRecord(root) ? { ...root } : {};
  const next = rest.length === 0 ? value : setAt(record[head], tail, value);
  if (next === undefined) delete record[head];
  else record[head] = next as Json;
  return record;
}

/** Moves an array item from one index to another. */
export function moveItem<T>(list: readonly T[], from: number, to: number): T[] {
  const copy = [...list];
  const [item] = copy.splice(from, 1);
  if (item !== undefined) copy.splice(to, 0, item);
  return copy;
}
