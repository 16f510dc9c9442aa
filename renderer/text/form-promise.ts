// `{promise:<form id>}` in words, from the installed site data's form definitions (renderer/site-data.ts): the same
// promiseMinutes the inbox dates each lead by (core/promise.ts), so page text cannot state another time.
import { promiseWords } from '../../core/promise.ts';
import { siteData } from '../site-data.ts';
import { PROMISE_TOKEN_PATTERN } from './tokens.ts';

/** "15 minutes" for a form promising 15 minutes; undefined for an unknown form. */
export function formPromise(formId: string): string | undefined {
  const minutes = siteData().forms[formId]?.promiseMinutes;
  return minutes === undefined ? undefined : promiseWords(minutes);
}

/** Plain text (a page's title, description, share text) with each {promise:<form id>} in words, and nothing else. */
export const withPromises = (text: string): string =>
  text.replace(PROMISE_TOKEN_PATTERN, (whole, formId: string) => formPromise(formId) ?? whole);
