// `npm run check:repeats`: no paragraph of more than 25 words appears word for word on two pages. One line per
// place, in the validator's format (`file:line:col  /pointer  message`, naming the other place); exit 1 when any.
import { ROOT, contentPaths } from '../content/paths.ts';
import { formatContentError, kindOf, readContent } from '../content/validate/validate-content.ts';
import { MAX_WORDS, repeatedParagraphs } from '../content/validate/repeated-text.ts';

const checkout = contentPaths(ROOT);
const pages = readContent(checkout).filter(
  (document) => kindOf(checkout, document.file) === 'page' && document.data !== undefined,
);
const errors = repeatedParagraphs(checkout, pages);
for (const error of errors) console.error(formatContentError(error));
if (errors.length > 0) {
  console.error(
    `\n${errors.length} places repeat a paragraph of more than ${MAX_WORDS} words from another page`,
  );
  process.exit(1);
}
console.log(`${pages.length} pages, no paragraph of more than ${MAX_WORDS} words on two of them`);
