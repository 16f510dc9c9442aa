// JSON pointers are how every part of the validator addresses a value: ajv reports them, the rules produce them,
// and only at the end are they turned into a line and column.

/** A problem before it is placed in the source: `at: 'key'` points at a property's name instead of its value. */
export type Problem = {
  pointer: string;
  message: string;
  at: 'value' | 'key';
  /** For a missing required property: its name. */
  missing?: string;
  /** An unknown property that is most likely a misspelling of this one (at the same object). */
  meant?: { object: string; property: string };
};
export type Json = { [key: string]: unknown };

export const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);

export const escapeSegment = (s: string) => s.replace(/~/g, '~0').replace(/\//g, '~1');
const unescapeSegment = (s: string) => s.replace(/~1/g, '/').replace(/~0/g, '~');
export const segmentsOf = (pointer: string) =>
  pointer === '' ? [] : pointer.slice(1).split('/').map(unescapeSegment);
export const parentOf = (pointer: string) => pointer.slice(0, Math.max(0, pointer.lastIndexOf('/')));
export const within = (pointer: string, base: string) => pointer === base || pointer.startsWith(`${base}/`);

export function valueAt(data: unknown, pointer: string): unknown {
  let node = data;
  for (const seg of segmentsOf(pointer)) {
    if (Array.isArray(node)) node = node[Number(seg)];
    else if (isObject(node)) node = node[seg];
    else return undefined;
  }
  return node;
}
