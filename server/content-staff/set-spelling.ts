// The spelling of a change set's own documents (content/validate/spelling.ts, cspell in its thread): a publish refuses
// a set with a misspelling, since once published and pulled it would fail `npm run check`, and the editor asks for
// the same list before submit. Only the set's documents are checked: the rest of the site is live, and was checked
// when it was published, so a publish costs a check per document it changes, not per page of the site.
import type { SetMisspelling } from '../../contracts/content-api.ts';
import { spellingErrors } from '../../content/validate/spelling.ts';

/** Every misspelled word of `documents` (a deleted one, text null, has none), by document, at its field. */
export async function setMisspellings(
  documents: readonly { path: string; text: string | null }[],
): Promise<SetMisspelling[]> {
  const found: SetMisspelling[] = [];
  for (const { path, text } of documents) {
    if (text === null) continue;
    for (const { pointer, word, message } of await spellingErrors(path, JSON.parse(text)))
      found.push({ path, pointer, word, message });
  }
  return found;
}

/** The refusal's sentence: each word and where it is. */
export function misspellingSentence(found: readonly SetMisspelling[]): string {
  const where = found.map(({ path, pointer, word }) => `“${word}” in ${path} at ${pointer}`).join('; ');
  return `${found.length === 1 ? 'a word is' : 'words are'} misspelled: ${where}. Correct the spelling in the editor (a name or medical term that is right goes into cspell-words.txt)`;
}
