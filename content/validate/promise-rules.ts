// The promise a form makes is one value (its definition's promiseMinutes, core/promise.ts): the inbox dates each lead by
// it, and every "within ..." the form's own words or a form block's words state must say the same, or the page promises
// one thing and admissions are held to another. A form document is checked against its own value; a page's form block
// against the form(s) it shows.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { PROMISE_TOKEN, promisedDurations, promiseWords } from '../../core/promise.ts';
import { PROMISE_TOKEN_PATTERN } from '../../renderer/text/tokens.ts';
import { isObject } from '../json-pointer.ts';
import type { ContentPaths } from '../paths.ts';
import { unknownName } from './messages.ts';
import type { Problem } from './problems.ts';
import { schemasAt } from './schema-walk.ts';

/** Values that are names or addresses, never words a visitor reads. */
const NOT_TEXT = new Set([
  '$schema',
  'href',
  'path',
  'id',
  'name',
  'type',
  'autocomplete',
  'formId',
  'secondFormId',
]);

/** Every readable string of `value`, with its pointer under `base`. */
function texts(value: unknown, base: string, key = ''): { pointer: string; text: string }[] {
  if (typeof value === 'string') return NOT_TEXT.has(key) ? [] : [{ pointer: base, text: value }];
  if (Array.isArray(value)) return value.flatMap((item, i) => texts(item, `${base}/${i}`, key));
  if (isObject(value))
    return Object.entries(value).flatMap(([k, item]) =>
      texts(item, `${base}/${k.replace(/~/g, '~0').replace(/\//g, '~1')}`, k),
    );
  return [];
}

/** Each "within ..." among `value`'s strings that is none of `allowed` (minutes), as a problem. */
function mismatches(value: unknown, base: string, allowed: readonly number[], whose: string): Problem[] {
  return texts(value, base).flatMap(({ pointer, text }) =>
    promisedDurations(text)
      .filter(({ minutes }) => !allowed.includes(minutes))
      .map(({ words }) => ({
        code: 'promise-mismatch' as const,
        pointer,
        message:
          `"${words}" disagrees with ${whose} promiseMinutes (${allowed.map(promiseWords).join(' or ')}): ` +
          'the inbox holds admissions to that value, so the words must say the same',
        at: 'value' as const,
        suggestion: `write "within ${promiseWords(allowed[0] ?? 0)}", or change promiseMinutes`,
      })),
  );
}

/**
 * A form document's own words against its promiseMinutes. Its `promise` states the time only through {promise} (made
 * from the value where it is shown, core/promise.ts): a time typed there is refused even when it agrees today. Its
 * other words (the success text) must say the same time, and {promise} is refused there, where nothing replaces it.
 */
export function formPromiseProblems(data: unknown): Problem[] {
  if (!isObject(data) || typeof data.promiseMinutes !== 'number') return [];
  const minutes = data.promiseMinutes;
  const typed =
    typeof data.promise === 'string'
      ? promisedDurations(data.promise).map(({ words }) => ({
          code: 'promise-mismatch' as const,
          pointer: '/promise',
          message:
            `"${words}" is typed: a form's promise states its time as ${PROMISE_TOKEN}, made from its promiseMinutes ` +
            `(${promiseWords(minutes)}), so the page and the inbox's due time can never disagree`,
          at: 'value' as const,
          suggestion: `write "within ${PROMISE_TOKEN}"`,
        }))
      : [];
  // The fields' labels and messages are questions, not promises: the rest of the document is what it says.
  const rest = Object.fromEntries(
    Object.entries(data).filter(([key]) => key !== 'fields' && key !== 'promise'),
  );
  const stray = texts(rest, '')
    .filter(({ text }) => text.includes(PROMISE_TOKEN))
    .map(({ pointer }) => ({
      code: 'promise-mismatch' as const,
      pointer,
      message: `${PROMISE_TOKEN} is made into words only in a form's "promise"; here it would be shown as typed`,
      at: 'value' as const,
      suggestion: `write "within ${promiseWords(minutes)}"`,
    }));
  return [...typed, ...stray, ...mismatches(rest, '', [minutes], "this form's")];
}

/** The promiseMinutes of a form under site/forms/, or undefined when it has none (or cannot be read). */
function promiseOf(paths: ContentPaths, formId: string): number | undefined {
  const file = join(paths.formsDir, `${formId}.json`);
  if (!existsSync(file)) return undefined;
  try {
    const data: unknown = JSON.parse(readFileSync(file, 'utf8'));
    return isObject(data) && typeof data.promiseMinutes === 'number' ? data.promiseMinutes : undefined;
  } catch {
    return undefined;
  }
}

/** A form block's words (heading, intro, points) against the promise of the form(s) it shows. */
export function formBlockPromiseProblems(
  paths: ContentPaths,
  block: Record<string, unknown>,
  base: string,
): Problem[] {
  const ids = [block.formId, block.secondFormId].filter((id): id is string => typeof id === 'string');
  const allowed = ids.map((id) => promiseOf(paths, id)).filter((minutes) => minutes !== undefined);
  if (allowed.length === 0) return [];
  return mismatches(block, base, allowed, ids.length > 1 ? 'its forms’' : `form "${ids[0]}"'s`);
}

/** A time typed in page text as a number of minutes or hours: "within 24 hours", "Answer Within 15 Minutes". */
const TYPED_TIME = /\bwithin\s+\d+\s+(minute|hour)s?\b/i;
/** Words that make a typed time a promise to get back to someone, not a clinical time ("symptoms begin within 12 hours"). */
const ANSWERING = /\b(answer|call|contact|respond|reply|hear|back|verif)/i;

/**
 * A page's own text (outside its form blocks, which formBlockPromiseProblems reads) against the promises of the forms it
 * shows. A time there equal to a shown form's promise is that promise typed: refused, so it follows the form's
 * promiseMinutes through {promise:<form id>} and never goes stale. A different time in words about getting back to
 * someone disagrees with every form on the page: refused too. Other times are clinical and left alone.
 */
export function pageTextPromiseProblems(paths: ContentPaths, blocks: readonly unknown[]): Problem[] {
  const shown = new Map<string, number>();
  for (const block of blocks)
    if (isObject(block) && block.type === 'form')
      for (const id of [block.formId, block.secondFormId])
        if (typeof id === 'string') {
          const minutes = promiseOf(paths, id);
          if (minutes !== undefined) shown.set(id, minutes);
        }
  if (shown.size === 0) return [];
  const [firstId = ''] = shown.keys();
  return blocks.flatMap((block, i) =>
    isObject(block) && block.type === 'form'
      ? []
      : texts(block, `/blocks/${i}`).flatMap(({ pointer, text }) =>
          promisedDurations(text)
            .filter(({ words }) => TYPED_TIME.test(words))
            .flatMap(({ words, minutes }): Problem[] => {
              const same = [...shown].find(([, promised]) => promised === minutes)?.[0];
              if (same !== undefined)
                return [
                  {
                    code: 'promise-mismatch',
                    pointer,
                    message:
                      `"${words}" types the promise of form "${same}" on this page: write {promise:${same}}, made ` +
                      'from its promiseMinutes, so the words follow the time the inbox holds admissions to',
                    at: 'value',
                    suggestion: `write "within {promise:${same}}"`,
                  },
                ];
              if (!ANSWERING.test(text)) return [];
              return [
                {
                  code: 'promise-mismatch',
                  pointer,
                  message:
                    `"${words}" disagrees with the promise of every form on this page (` +
                    [...shown].map(([id, m]) => `"${id}": ${promiseWords(m)}`).join(', ') +
                    '): the inbox holds admissions to that, so the words must say the same',
                  at: 'value',
                  suggestion: `write "within {promise:${firstId}}"`,
                },
              ];
            }),
        ),
  );
}

/** A page's fields that go into its head (tab title, search result, share preview): renderer/head.ts makes words there. */
const HEAD_TEXT = /^\/(title|description|social\/(title|description))$/;
const TEXT_DEF = '#/$defs/text';

/**
 * Page and site text stating a form's promise: `{promise:<form id>}`, made into words from that form's promiseMinutes
 * wherever the text is shown (renderer/text/tokens.ts), so no page types a time the inbox does not hold admissions to.
 * Each names a form of site/forms/; it stands in formatted text or a page's head text, where it is made into words
 * (elsewhere it would show as typed); a bare {promise} names no form.
 */
export function promiseTokenProblems(data: unknown, rootUrl: string, formIds: readonly string[]): Problem[] {
  return texts(data, '').flatMap(({ pointer, text }) => {
    const problems: Problem[] = [];
    const tokens = [...text.matchAll(PROMISE_TOKEN_PATTERN)];
    if (text.includes(PROMISE_TOKEN))
      problems.push({
        code: 'unknown-form',
        pointer,
        message: `${PROMISE_TOKEN} names no form here: page text states a form's promise as {promise:<form id>}, such as {promise:${formIds[0] ?? 'consultation'}}`,
        at: 'value',
      });
    for (const [, formId = ''] of tokens)
      if (!formIds.includes(formId)) {
        const { message, suggestion } = unknownName('unknown form', formId, formIds, 'forms in site/forms/');
        problems.push({
          code: 'unknown-form',
          pointer,
          message: `{promise:${formId}}: ${message}`,
          at: 'value',
          ...(suggestion && { suggestion: `write {promise:${suggestion}}` }),
        });
      }
    const shown =
      HEAD_TEXT.test(pointer) || schemasAt(rootUrl, data, pointer).some((l) => l.url.endsWith(TEXT_DEF));
    if (tokens.length > 0 && !shown)
      problems.push({
        code: 'not-allowed',
        pointer,
        message:
          "{promise:<form id>} is made into words only in formatted text and a page's title, description and " +
          'social text; here it would be shown as typed',
        at: 'value',
      });
    return problems;
  });
}

/** `text` as a visitor reads it: each {promise:<form id>} of a known form in words (a search result's length counts them). */
export const withFormPromises = (paths: ContentPaths, text: string): string =>
  text.replace(PROMISE_TOKEN_PATTERN, (whole, formId: string) => {
    const minutes = promiseOf(paths, formId);
    return minutes === undefined ? whole : promiseWords(minutes);
  });
