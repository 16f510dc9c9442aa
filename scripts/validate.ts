// `npm run validate [-- file...]`: checks every content document (or the files named) against its schema
// and across documents. One line per error, like a compiler; exit 1 when there is any.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { contentPaths } from '../content/paths.ts';
import {
  fileProblem,
  formatContentError,
  readContent,
  validateAll,
  validateDocumentText,
  type ContentProblem,
} from '../content/validate/validate-content.ts';
import { pageDocuments, seoWarnings } from './lib/seo-lint.ts';
import { cli, readArgs, runAsMain, type CliIo } from '../core/cli.ts';

export const USAGE = `Usage: npm run validate [-- file...]

  Checks every content document under pages/ and site/ (or only the files named) against its schema and across
  documents; prints each error as file:line:col  /pointer (block)  message, and exits 1 when there is any.
`;

/** The content root is the folder the command runs in: the checkout for `npm run validate`, a copy in the tests. */
async function run(argv: readonly string[], io: CliIo): Promise<number> {
  const named = readArgs(argv, {}, { positionals: true }).positionals;
  const root = contentPaths(io.cwd);
  const validateNamed = (files: string[]): ContentProblem[] =>
    files.flatMap((f) => {
      const file = resolve(io.cwd, f);
      try {
        return validateDocumentText(root, file, readFileSync(file, 'utf8'));
      } catch (err) {
        const reason =
          err instanceof Error && 'code' in err && err.code === 'ENOENT' ? 'file not found' : String(err);
        return [fileProblem('unreadable-file', f, reason)];
      }
    });

  const started = performance.now();
  // Every document is read and parsed once, for the checks and the SEO lint alike.
  const content = named.length ? undefined : readContent(root);
  const errors = content ? validateAll(root, content) : validateNamed(named);
  const milliseconds = Math.round(performance.now() - started);
  const documents = content ?? named;
  if (content) for (const warning of seoWarnings(pageDocuments(content))) io.err(`${warning}\n`);

  for (const error of errors) io.err(`${formatContentError(error)}\n`);
  if (errors.length) {
    const files = new Set(errors.map((e) => e.file)).size;
    const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
    io.err(
      `\n${plural(errors.length, 'error')} in ${plural(files, 'file')} (${plural(documents.length, 'document')} checked)\n`,
    );
    return 1;
  }
  io.out(`${documents.length} document${documents.length === 1 ? '' : 's'} valid in ${milliseconds} ms\n`);
  return 0;
}

export const runValidateCli = cli(run, USAGE, []);

await runAsMain(import.meta.url, runValidateCli);
