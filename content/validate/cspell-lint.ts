// `npm run check:spelling` on one draft: cspell, with the code root's own cspell.json (American spelling, the project's
// words in cspell-words.txt). cspell reads files: the draft is written, as the file it will be saved as, in a private
// temporary folder (mkdtemp: 0700, a random name), and removed after. Run in the spelling thread (spelling.ts says
// why); the dictionaries load at its first check (a few seconds), a check is then tens to hundreds of milliseconds.
// Node-only.
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { lint } from 'cspell';
import { parse } from 'json-source-map';
import { ROOT } from '../paths.ts';

/** `flagged`: a word the project forbids (British spelling); else a word no dictionary knows. */
export type Misspelling = { pointer: string; word: string; flagged: boolean; suggestions: string[] };

/** Every word of `document` (saved as `file`, a path in the content root) that `npm run check:spelling` would flag. */
export async function misspellings(file: string, document: unknown): Promise<Misspelling[]> {
  const text = `${JSON.stringify(document, null, 2)}\n`;
  const folder = mkdtempSync(join(tmpdir(), 'spelling-'));
  const draft = join(folder, ...file.split('/'));
  const found: { offset: number; word: string; flagged: boolean; suggestions: string[] }[] = [];
  const lines = text.split('\n');
  const lineStart = (row: number) => lines.slice(0, row - 1).reduce((sum, line) => sum + line.length + 1, 0);
  try {
    mkdirSync(dirname(draft), { recursive: true, mode: 0o700 });
    writeFileSync(draft, text, { mode: 0o600 });
    // The temporary folder is cspell's root, so the draft is `file` to it, as in a checkout: cspell.json's `files` and
    // `overrides` globs match it as they match the checked-in document. (A file outside the root is skipped silently.)
    const result = await lint(
      [draft],
      { root: folder, config: join(ROOT, 'cspell.json'), showSuggestions: true, mustFindFiles: true },
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
    // Never a silent pass: a draft cspell did not read (a path its `files` leaves out) is not spelled right.
    if (result.files !== 1) throw new Error(`the spelling check did not read ${file}`);
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
