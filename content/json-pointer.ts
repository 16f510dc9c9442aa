// JSON pointers (RFC 6901), the one implementation: the validator addresses every value with them (ajv reports
// them, the rules produce them, and only at the end are they turned into a line and column), the studio edits
// documents through them, the server reads them from ajv's errors. Pure and browser-safe.

/** A JSON value as parsed. */
export type Json = null | boolean | number | string | Json[] | { [key: string]: Json };
/** An object of unknown values: what a schema, or a document read without a type, is walked as. */
export type JsonObject = { [key: string]: unknown };

export const isObject = (v: unknown): v is JsonObject =>
  typeof v === 'object' && v !== null && !Array.isArray(v);
/** isObject, for a value known to be JSON. */
export const isRecord = (v: unknown): v is Record<string, Json> => isObject(v);

export const escapeSegment = (s: string | number) => String(s).replace(/~/g, '~0').replace(/\//g, '~1');
export const unescapeSegment = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
/** The reference tokens of a pointer, unescaped: '/a~1b/0' is ['a/b', '0']. */
export const segmentsOf = (pointer: string): string[] =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
/** The pointer of a child: join('/blocks', 0) is '/blocks/0'. */
export const join = (pointer: string, segment: string | number) => `${pointer}/${escapeSegment(segment)}`;
/** A pointer from its segments. */
export const pointerOf = (segments: readonly (string | number)[]) =>
  segments.map((segment) => `/${escapeSegment(segment)}`).join('');
export const parentOf = (pointer: string) => pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
export const within = (pointer: string, base: string) => pointer === base || pointer.startsWith(`${base}/`);

/** The value at `pointer`, or undefined when there is none. */
export function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const seg of segmentsOf(pointer)) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node)) node = node[seg];
    else return undefined;
  }
  return node;
}

/**
 * `root` with the value at `pointer` replaced (undefined removes an object's key or an array's item), changed
 * without mutation: every edit makes a new document, so undo keeps the old one as it was.
 */
export function setAt(root: unknown, pointer: string, value: unknown): unknown {
  const [head, ...rest] = segmentsOf(pointer);
  if (head === undefined) return value;
  const tail = pointerOf(rest);
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
