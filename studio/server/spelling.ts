// `npm run check:spelling` on a draft: cspell, in this process, with the checkout's own cspell.json (American
// spelling, the project's words), so the studio flags what the check would. cspell reads files: the draft is written,
// as the file it will be saved as, under the studio's private cache folder (.studio-cache/, 0700), and removed after.
// The dictionaries load once (a few seconds, started with the studio); a check is then tens of milliseconds.
import { mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { lint } from 'cspell';
import { parse } from 'json-source-map';
import { ROOT } from '../../content/paths.ts';
import { studioCacheDir } from '../cache-dir.ts';

/** `flagged`: a word the project forbids (British spelling); else a word no dictionary knows. */
export type Misspelling = { pointer: string; word: string; flagged: boolean; suggestions: string[] };

let next = 0;

/** Every word of `document` (saved as `file`) that `npm run check:spelling` would flag, at its field. */
export async function misspellings(file: string, document: unknown): Promise<Misspelling[]> {
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const folder = join(studioCacheDir(ROOT), 'spelling', String(++next));
  const draft = join(folder, file);
  mkdirSync(dirname(draft), { recursive: true, mode: 0o700 });
  writeFileSync(draft, text, { mode: 0o600 });
  const found: { offset: number; word: string; flagged: boolean; suggestions: string[] }[] = [];
  const lines = text.split('\n');
  const lineStart = (row: number) => lines.slice(0, row - 1).reduce((sum, line) => sum + line.length + 1, 0);
  try {
    await lint(
      [draft],
      { root: ROOT, config: join(ROOT, 'cspell.json'), showSuggestions: true, mustFindFiles: true },
      {
        issue: (issue) =>
          found.push({
            offset: lineStart(issue.row) + issue.col - 1,
            word: issue.text,
            flagged: issue.isFlagged === true,
            suggestions: (issue.suggestions ?? []).slice(0, 3),
          }),
        info: () => undefined,
        debug: () => undefined,
        error: () => undefined,
        progress: () => undefined,
        result: () => undefined,
      },
    );
  } finally {
    rmSync(folder, { recursive: true, force: true });
  }
  if (found.length === 0) return [];
  // Each word at the string value that holds it (the deepest one whose text spans its offset).
  const { pointers } = parse(text);
  const strings = Object.entries(pointers).filter(([, m]) => text[m.value.pos] === '"');
  return found.map(({ offset, ...issue }) => {
    const holder = strings
      .filter(([, m]) => m.value.pos <= offset && offset < m.valueEnd.pos)
      .sort(([, a], [, b]) => b.value.pos - a.value.pos)[0];
    return { pointer: holder?.[0] ?? '', ...issue };
  });
}

/** Loads the dictionaries before the first check needs them. */
export const warmSpelling = () =>
  void misspellings('pages/warm-up.json', { title: 'ready' }).catch(() => undefined);
