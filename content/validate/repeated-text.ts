// A paragraph copied word for word onto another page reads as boilerplate, and on a page about one substance it
// often says something only true of another. Any text value of more than MAX_WORDS words that appears on two pages
// is reported at each place, naming the other. Run by `npm run check:repeats` (in `npm run check`), not by the
// build: a repeat is worth fixing, but it does not break a page.
import { parse as parseWithPointers } from 'json-source-map';
import { plainText } from '../../renderer/text/tokens.ts';
import { escapeSegment, isObject } from '../json-pointer.ts';
import { lineColumn } from './json-positions.ts';
import type { ContentPaths } from '../paths.ts';
import { contentPath } from './document-rules.ts';
import type { ContentProblem } from './problems.ts';
import type { ContentDocument } from './validate-content.ts';

/** Paragraphs longer than this many words must not repeat across pages. */
export const MAX_WORDS = 25;

const WORD = /[\p{L}\p{N}]+(?:['’][\p{L}]+)*/gu;

type Paragraph = { file: string; pointer: string; words: string[] };

/** The words of a text as a visitor reads them: markup, case and punctuation aside. */
function wordsOf(text: string): string[] {
  return (
    plainText(text, { phone: 'phone', email: 'email', promise: () => 'promise' })
      .toLowerCase()
      .match(WORD) ?? []
  );
}

function strings(value: unknown, pointer: string, found: { pointer: string; text: string }[]) {
  if (typeof value === 'string') found.push({ pointer, text: value });
  else if (Array.isArray(value)) value.forEach((item, i) => strings(item, `${pointer}/${i}`, found));
  else if (isObject(value))
    for (const [key, item] of Object.entries(value)) strings(item, `${pointer}/${escapeSegment(key)}`, found);
  return found;
}

/** Positions of pointers in a document's source, computed once per document that needs them. */
function placer(pages: readonly ContentDocument[]) {
  const placed = new Map<string, (pointer: string) => { line: number; column: number }>();
  return (file: string, pointer: string) => {
    let at = placed.get(file);
    if (!at) {
      const source = pages.find((page) => page.file === file)?.source ?? '';
      const { pointers } = parseWithPointers(source);
      const position = lineColumn(source);
      at = (p) => position(pointers[p]?.value.pos ?? 0);
      placed.set(file, at);
    }
    return at(pointer);
  };
}

/**
 * Every paragraph that shares a run of more than MAX_WORDS words with a paragraph of another page (the whole
 * paragraph, or a long stretch of it with a word or two changed), one error at each, naming the others.
 */
export function repeatedParagraphs(paths: ContentPaths, pages: readonly ContentDocument[]): ContentProblem[] {
  const paragraphs: Paragraph[] = [];
  // Each run of MAX_WORDS + 1 words, to the paragraphs and word offsets where it appears.
  const runs = new Map<string, { paragraph: number; start: number }[]>();
  for (const { file, data } of pages)
    for (const { pointer, text } of strings(data, '', [])) {
      const words = wordsOf(text);
      if (words.length <= MAX_WORDS) continue;
      const paragraph = paragraphs.push({ file, pointer, words }) - 1;
      for (let start = 0; start + MAX_WORDS < words.length; start++) {
        const run = words.slice(start, start + MAX_WORDS + 1).join(' ');
        const list = runs.get(run) ?? [];
        list.push({ paragraph, start });
        runs.set(run, list);
      }
    }

  // For each paragraph, the other pages' paragraphs it shares runs with, and where in it those runs start.
  const shared = new Map<number, Map<number, Set<number>>>();
  for (const list of runs.values())
    for (const own of list)
      for (const other of list) {
        if (paragraphs[own.paragraph]?.file === paragraphs[other.paragraph]?.file) continue;
        const partners = shared.get(own.paragraph) ?? new Map<number, Set<number>>();
        partners.set(other.paragraph, (partners.get(other.paragraph) ?? new Set()).add(own.start));
        shared.set(own.paragraph, partners);
      }

  const place = placer(pages);
  const where = ({ file, pointer }: Paragraph) => {
    const { line, column } = place(file, pointer);
    return `${contentPath(paths, file)}:${line}:${column}`;
  };
  const errors: ContentProblem[] = [];
  for (const [index, partners] of shared) {
    const own = paragraphs[index];
    if (!own) continue;
    const others = [...partners.keys()].flatMap((k) => paragraphs[k] ?? []);
    const whole = others.every((other) => other.words.join(' ') === own.words.join(' '));
    const longest = Math.max(...[...partners.values()].map(longestRun)) + MAX_WORDS;
    const message = whole
      ? `this ${own.words.length}-word paragraph also appears word for word at ${others.map(where).join(', ')}`
      : `${longest} words of this paragraph in a row also appear word for word at ${others.map(where).join(', ')}`;
    errors.push({
      code: 'repeated-paragraph',
      file: contentPath(paths, own.file),
      pointer: own.pointer,
      ...place(own.file, own.pointer),
      message: `${message}; write each page's own`,
    });
  }
  return errors.sort((a, b) => a.file.localeCompare(b.file) || a.line - b.line || a.column - b.column);
}

/** The most consecutive run starts: one shared stretch of words. */
function longestRun(starts: Set<number>): number {
  let best = 0;
  for (const start of starts) {
    if (starts.has(start - 1)) continue;
    let length = 1;
    while (starts.has(start + length)) length++;
    best = Math.max(best, length);
  }
  return best;
}
