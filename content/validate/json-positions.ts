// The source text, read as text: where a pointer's key or value starts, where a syntax error most likely is,
// and which keys an object repeats. The parsed value keeps none of these, and an editor needs all three.
import type { Mapping } from 'json-source-map';
import { escapeSegment, parentOf } from '../json-pointer.ts';
import type { Problem } from './problems.ts';

/** Line and column (both 1-based, tab = one column) of a character offset. */
export function lineColumn(text: string): (pos: number) => { line: number; column: number } {
  const starts = [0];
  for (let i = 0; i < text.length; i++) if (text[i] === '\n') starts.push(i + 1);
  return (pos) => {
    let lo = 0;
    let hi = starts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if ((starts[mid] ?? 0) <= pos) lo = mid;
      else hi = mid - 1;
    }
    return { line: lo + 1, column: pos - (starts[lo] ?? 0) + 1 };
  };
}

/** Where a problem sits in the text: its key or value, or the nearest enclosing value that exists. */
export function offsetOf(pointers: Record<string, Mapping>, problem: Problem): number {
  const own = pointers[problem.pointer];
  if (own) return (problem.at === 'key' && own.key ? own.key : own.value).pos;
  for (let p = problem.pointer; p !== '';) {
    p = parentOf(p);
    const mapping = pointers[p];
    if (mapping) return mapping.value.pos;
  }
  return 0;
}

const POSITION = /position (\d+)/;

function isCompleteJson(text: string): boolean {
  try {
    JSON.parse(text);
    return true;
  } catch {
    return false;
  }
}

/** A JSON syntax error, placed where the mistake most likely is, with a plain message. */
export function syntaxProblem(text: string, error: unknown): { pos: number; message: string } {
  if (text.trim() === '') return { pos: 0, message: 'invalid JSON: the file is empty' };
  const raw = error instanceof Error ? error.message : String(error);
  const match = POSITION.exec(raw);
  if (match && isCompleteJson(text.slice(0, Number(match[1]))))
    return { pos: Number(match[1]), message: 'invalid JSON: unexpected text after the end of the document' };
  if (!match) {
    const end = text.trimEnd().length;
    return {
      pos: Math.max(0, end - 1),
      message: 'invalid JSON: the file ends too early; a closing }, ] or " is missing',
    };
  }
  const pos = Number(match[1]);
  const token = text[pos] ?? '';
  let prevPos = pos - 1;
  while (prevPos >= 0 && /\s/.test(text[prevPos] ?? '')) prevPos--;
  const prev = text[prevPos] ?? '';
  if ((token === '}' || token === ']') && prev === ',')
    return {
      pos: prevPos,
      message: `invalid JSON: remove this comma; JSON allows no comma before "${token}"`,
    };
  if (token === "'") return { pos, message: 'invalid JSON: use double quotes ("), not single quotes' };
  if (token === '/') return { pos, message: 'invalid JSON: comments are not allowed' };
  if (/["{[\d-]/.test(token) && /["}\]\de]/.test(prev) && prev !== '')
    return { pos, message: 'invalid JSON: a comma is missing before this' };
  if (/[A-Za-z_$]/.test(token))
    return { pos, message: `invalid JSON: unexpected ${token}…; text and property names need double quotes` };
  return { pos, message: `invalid JSON: unexpected "${token}"` };
}

/** Keys repeated in one object: JSON.parse keeps the last silently, so a content edit can vanish. */
export function duplicateKeys(text: string): { pointer: string; pos: number; key: string }[] {
  // Runs on every document, so it is written for speed: strings are skipped with indexOf, and a container's
  // pointer is built only when a duplicate is found in it.
  type Frame = {
    parent: Frame | undefined;
    segment: string;
    keys: Set<string> | undefined;
    key: string;
    index: number;
  };
  const pointerOf = (frame: Frame | undefined): string =>
    frame?.parent ? `${pointerOf(frame.parent)}/${escapeSegment(frame.segment)}` : '';
  const found: { pointer: string; pos: number; key: string }[] = [];
  let top: Frame | undefined;
  let expectKey = false;
  const open = (keys: Set<string> | undefined) => {
    const segment = top === undefined ? '' : top.keys ? top.key : String(top.index);
    top = { parent: top, segment, keys, key: '', index: 0 };
  };
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (c === 0x22 /* " */) {
      let j = text.indexOf('"', i + 1);
      while (j > 0 && isEscaped(text, j)) j = text.indexOf('"', j + 1);
      if (j < 0) break;
      if (expectKey && top?.keys) {
        const raw = text.slice(i + 1, j);
        const key = raw.includes('\\') ? (JSON.parse(`"${raw}"`) as string) : raw;
        if (top.keys.has(key))
          found.push({ pointer: `${pointerOf(top)}/${escapeSegment(key)}`, pos: i, key });
        top.keys.add(key);
        top.key = key;
        expectKey = false;
      }
      i = j;
    } else if (c === 0x7b /* { */) {
      open(new Set());
      expectKey = true;
    } else if (c === 0x5b /* [ */) {
      open(undefined);
    } else if (c === 0x7d /* } */ || c === 0x5d /* ] */) {
      top = top?.parent;
    } else if (c === 0x2c /* , */) {
      if (top?.keys) expectKey = true;
      else if (top) top.index++;
    }
  }
  return found;
}

/** Whether the character at `pos` is escaped: preceded by an odd number of backslashes. */
function isEscaped(text: string, pos: number): boolean {
  let backslashes = 0;
  while (text.charCodeAt(pos - 1 - backslashes) === 0x5c) backslashes++;
  return backslashes % 2 === 1;
}
