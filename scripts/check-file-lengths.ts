// `npm run check` fails when a hand-written source file grows past MAX_LINES: past that size a file is doing more
// than one thing, and wants a split along its seams (see how server/ and content/validate/ are grouped).
// Generated files and content documents are exempt.
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { ROOT } from '../content/paths.ts';

export const MAX_LINES = 400;
const SOURCE = /\.(ts|tsx|js|mjs|cjs|css)$/;
const EXEMPT = /^(generated|node_modules|dist)\//;

const files = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
  cwd: ROOT,
  encoding: 'utf8',
})
  .split('\n')
  .filter((file) => SOURCE.test(file) && !EXEMPT.test(file));

const long = files
  .map((file) => {
    let text: string;
    try {
      text = readFileSync(`${ROOT}/${file}`, 'utf8');
    } catch {
      return { file, lines: 0 }; // listed by git but deleted in the working tree
    }
    return { file, lines: text.split('\n').length - (text.endsWith('\n') ? 1 : 0) };
  })
  .filter(({ lines }) => lines > MAX_LINES)
  .sort((a, b) => b.lines - a.lines);

for (const { file, lines } of long)
  console.error(`${file}: ${lines} lines (at most ${MAX_LINES}); split it along its seams`);
if (long.length > 0) process.exit(1);
console.log(`${files.length} source files, none over ${MAX_LINES} lines`);
