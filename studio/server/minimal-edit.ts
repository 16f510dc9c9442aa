// A save rewrites only what changed: the new document is applied to the text on disk one changed value at a time
// (jsonc-parser's modify), then the repository's Prettier config formats the result. Untouched values keep their
// exact spelling (1.0 stays 1.0), keys keep their order, and a save with no edit writes the same bytes.
import {
  applyEdits,
  modify,
  parse,
  type JSONPath,
  type ModificationOptions,
  type ParseError,
} from 'jsonc-parser';
import { format, resolveConfig } from 'prettier';
import { isRecord, type Json } from '../../content/json-pointer.ts';

/** Deep equality of JSON values (1.0 equals 1: they are one number). */
export function sameJson(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (Array.isArray(a) && Array.isArray(b))
    return a.length === b.length && a.every((item, i) => sameJson(item, b[i]));
  if (isRecord(a) && isRecord(b)) {
    const keys = Object.keys(a);
    return keys.length === Object.keys(b).length && keys.every((k) => k in b && sameJson(a[k], b[k]));
  }
  return false;
}

const FORMATTING: ModificationOptions['formattingOptions'] = { insertSpaces: true, tabSize: 2, eol: '\n' };

function set(text: string, path: JSONPath, value: unknown, extra: Partial<ModificationOptions> = {}): string {
  return applyEdits(text, modify(text, path, value, { formattingOptions: FORMATTING, ...extra }));
}

/** Pairs of equal items (by index) in the longest common subsequence of two arrays. */
function commonItems(a: readonly unknown[], b: readonly unknown[]): [number, number][] {
  const rows = a.length + 1;
  const cols = b.length + 1;
  const table = new Uint32Array(rows * cols);
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i * cols + j] = sameJson(a[i], b[j])
        ? (table[(i + 1) * cols + j + 1] ?? 0) + 1
        : Math.max(table[(i + 1) * cols + j] ?? 0, table[i * cols + j + 1] ?? 0);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (sameJson(a[i], b[j])) pairs.push([i++, j++]);
    else if ((table[(i + 1) * cols + j] ?? 0) >= (table[i * cols + j + 1] ?? 0)) i++;
    else j++;
  }
  return pairs;
}

function editArray(text: string, path: JSONPath, before: Json[], after: Json[]): string {
  // Between two kept items, old items are edited in place as far as the new ones go, then removed or inserted.
  // Working from the end keeps the indexes of everything earlier valid.
  const anchors = [[-1, -1], ...commonItems(before, after), [before.length, after.length]];
  let out = text;
  for (let k = anchors.length - 1; k > 0; k--) {
    const [i0, j0] = (anchors[k - 1] ?? [0, 0]).map((n) => n + 1) as [number, number];
    const [i1, j1] = anchors[k] as [number, number];
    const olds = i1 - i0;
    const news = j1 - j0;
    const shared = Math.min(olds, news);
    for (let t = news - 1; t >= shared; t--)
      out = set(out, [...path, i0 + shared], after[j0 + t], { isArrayInsertion: true });
    for (let t = olds - 1; t >= shared; t--) out = set(out, [...path, i0 + t], undefined);
    for (let t = shared - 1; t >= 0; t--)
      out = editValue(out, [...path, i0 + t], before[i0 + t] ?? null, after[j0 + t] ?? null);
  }
  return out;
}

function editObject(
  text: string,
  path: JSONPath,
  before: Record<string, Json>,
  after: Record<string, Json>,
): string {
  let out = text;
  for (const key of Object.keys(before)) if (!(key in after)) out = set(out, [...path, key], undefined);
  const order = Object.keys(after);
  for (const key of order) {
    const value = after[key] ?? null;
    if (!(key in before)) {
      // A new key goes where the document being saved has it, among the keys already written.
      const later = new Set(order.slice(order.indexOf(key) + 1));
      out = set(out, [...path, key], value, {
        getInsertionIndex: (keys) => {
          const index = keys.findIndex((k) => later.has(k));
          return index < 0 ? keys.length : index;
        },
      });
    } else out = editValue(out, [...path, key], before[key] ?? null, value);
  }
  return out;
}

function editValue(text: string, path: JSONPath, before: Json, after: Json): string {
  if (sameJson(before, after)) return text;
  if (Array.isArray(before) && Array.isArray(after)) return editArray(text, path, before, after);
  if (isRecord(before) && isRecord(after)) return editObject(text, path, before, after);
  return set(text, path, after);
}

/**
 * The text to write for `document`, given the file's current text: only the values that differ are rewritten, then
 * the result is formatted as the repository's Prettier config says. A file that is not JSON is written anew.
 */
export async function documentText(
  file: string,
  current: string | undefined,
  document: unknown,
): Promise<string> {
  const errors: ParseError[] = [];
  const parsed: unknown =
    current === undefined ? undefined : parse(current, errors, { allowTrailingComma: false });
  const edited =
    current !== undefined && errors.length === 0 && parsed !== undefined
      ? editValue(current, [], parsed as Json, document as Json)
      : `${JSON.stringify(document, null, 2)}\n`;
  if (current !== undefined && edited === current) return current;
  const options = (await resolveConfig(file)) ?? {};
  return format(edited, { ...options, filepath: file });
}
