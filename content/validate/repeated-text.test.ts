import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT, contentPaths } from '../paths.ts';
import { formatContentError, type ContentDocument } from './validate-content.ts';
import { repeatedParagraphs } from './repeated-text.ts';

/** A page document whose FAQ answers are `answers` (answer k on line 5 + k, its string at column 37). */
function page(name: string, answers: string[]): ContentDocument {
  const items = answers.map((a) => `      { "question": "Q?", "answer": ${JSON.stringify(a)} }`).join(',\n');
  const source = `{
  "title": "A page",
  "blocks": [
    { "type": "faq", "heading": "Questions", "items": [
${items}
    ] }
  ]
}
`;
  return { file: join(ROOT, 'pages', `${name}.json`), source, data: JSON.parse(source) as unknown };
}

const words = (n: number, from = 0) => Array.from({ length: n }, (_, i) => `word${from + i}`).join(' ');
const lines = (pages: ContentDocument[]) =>
  repeatedParagraphs(contentPaths(ROOT), pages).map(formatContentError);

describe('repeated paragraphs', () => {
  it('reports a paragraph of more than 25 words on two pages at both places, each naming the other', () => {
    const text = `${words(25)} more.`;
    expect(lines([page('a', ['Short and unique.', text]), page('b', [text])])).toEqual([
      "pages/a.json:6:37  /blocks/0/items/1/answer  this 26-word paragraph also appears word for word at pages/b.json:5:37; write each page's own",
      "pages/b.json:5:37  /blocks/0/items/0/answer  this 26-word paragraph also appears word for word at pages/a.json:6:37; write each page's own",
    ]);
  });

  it('allows a paragraph of 25 words, and a long one repeated on the same page', () => {
    expect(lines([page('a', [words(25)]), page('b', [words(25)])])).toEqual([]);
    expect(lines([page('a', [words(40), words(40)]), page('b', [words(40, 100)])])).toEqual([]);
  });

  it('reads the text as a visitor does: markup, case and punctuation do not hide a copy', () => {
    const plain = `Call ${words(30)}.`;
    const marked = `**call** [${words(30)}](/insurance-verification)`;
    expect(lines([page('a', [plain]), page('b', [marked])])).toHaveLength(2);
  });

  it('finds a long stretch shared by two paragraphs that differ in a word or two', () => {
    const [a, b] = [`Stopping Xanax ${words(30)}.`, `Stopping a benzodiazepine ${words(30)}.`];
    expect(lines([page('a', [a]), page('b', [b])])).toEqual([
      "pages/a.json:5:37  /blocks/0/items/0/answer  30 words of this paragraph in a row also appear word for word at pages/b.json:5:37; write each page's own",
      "pages/b.json:5:37  /blocks/0/items/0/answer  30 words of this paragraph in a row also appear word for word at pages/a.json:5:37; write each page's own",
    ]);
  });

  it('names every other page that repeats it', () => {
    const text = words(30);
    const [first] = repeatedParagraphs(contentPaths(ROOT), [
      page('a', [text]),
      page('b', [text]),
      page('c', [text]),
    ]);
    expect(first?.message).toContain('at pages/b.json:5:37, pages/c.json:5:37;');
  });
});
