// `npm run validate [-- file...]`: checks every content document (or the files named) against its schema
// and across documents. One line per error, like a compiler; exit 1 when there is any.
import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { ROOT, contentPaths } from '../content/paths.ts';
import {
  fileProblem,
  formatContentError,
  readContent,
  validateAll,
  validateDocumentText,
  type ContentProblem,
} from '../content/validate/validate-content.ts';
import { pageDocuments, seoWarnings } from './lib/seo-lint.ts';
import { readArgs } from '../core/cli-args.ts';

const named = readArgs(process.argv.slice(2), {}, { positionals: true }).positionals;
// The checkout's documents: the content root of the command line.
const checkout = contentPaths(ROOT);

function validateNamed(files: string[]): ContentProblem[] {
  return files.flatMap((f) => {
    const file = resolve(f);
    try {
      return validateDocumentText(checkout, file, readFileSync(file, 'utf8'));
    } catch (err) {
      const reason =
        err instanceof Error && 'code' in err && err.code === 'ENOENT' ? 'file not found' : String(err);
      return [fileProblem('unreadable-file', f, reason)];
    }
  });
}

const started = performance.now();
// Every document is read and parsed once, for the checks and the SEO lint alike.
const content = named.length ? undefined : readContent(checkout);
const errors = content ? validateAll(checkout, content) : validateNamed(named);
const milliseconds = Math.round(performance.now() - started);
const documents = content ?? named;
if (content) for (const warning of seoWarnings(pageDocuments(content))) console.warn(warning);

for (const error of errors) console.error(formatContentError(error));
if (errors.length) {
  const files = new Set(errors.map((e) => e.file)).size;
  const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;
  console.error(
    `\n${plural(errors.length, 'error')} in ${plural(files, 'file')} (${plural(documents.length, 'document')} checked)`,
  );
  process.exit(1);
}
console.log(`${documents.length} document${documents.length === 1 ? '' : 's'} valid in ${milliseconds} ms`);
