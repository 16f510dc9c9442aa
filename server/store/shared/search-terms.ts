// Search over sealed leads through keyed hashes. Each name word (and its prefixes of three letters or more), each
// phone number (its ten digits, and its last four) and each e-mail address becomes a term; the database keeps only
// HMAC-SHA-256 of the term under an index key derived from the encryption key, so without the key a stored term tests
// no guess. A query is normalised the same way and hashed under each key of the ring (a rotation may be half done).
import { createHmac, hkdfSync } from 'node:crypto';
import type { SearchKind } from './lead-fields.ts';

const MIN_PREFIX = 3;
// 16 bytes of the HMAC: far beyond any collision among a database's terms, and shorter rows in lead_terms.
const TERM_BYTES = 16;

/** The key the terms are hashed with, derived from (never equal to) an encryption key. */
export const indexKeyOf = (key: Buffer): Buffer =>
  Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), 'leads-search-index', 32));

export const hashTerm = (indexKey: Buffer, term: string): string =>
  createHmac('sha256', indexKey).update(term).digest().subarray(0, TERM_BYTES).toString('base64url');

/** Lower case, accents and apostrophes gone, split into words of letters and digits: José O'Neil → jose, oneil. */
export const nameWords = (text: string): string[] =>
  text
    .normalize('NFKD')
    .replace(/\p{M}/gu, '')
    .toLowerCase()
    .replace(/['\u2019]/g, '')
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

/** The ten digits of a US number (a leading country code 1 dropped), or the digits as they are. */
function phoneDigits(text: string): string {
  const digits = text.replace(/\D/g, '');
  return digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
}

const nameTerms = (word: string): string[] =>
  word.length <= MIN_PREFIX
    ? [`n:${word}`]
    : Array.from({ length: word.length - MIN_PREFIX + 1 }, (_, n) => `n:${word.slice(0, MIN_PREFIX + n)}`);

function phoneTerms(text: string): string[] {
  const digits = phoneDigits(text);
  return [
    ...(digits.length === 10 ? [`p:${digits}`] : []),
    ...(digits.length >= 4 ? [`p4:${digits.slice(-4)}`] : []),
  ];
}

/** The terms (before hashing) of one submitted value. */
export function termsOf(kind: SearchKind, value: string): string[] {
  if (kind === 'name') return nameWords(value).flatMap(nameTerms);
  if (kind === 'phone') return phoneTerms(value);
  const email = value.trim().toLowerCase();
  return email ? [`e:${email}`] : [];
}

/** Every hashed term of a lead's values under `indexKey`, without repeats. */
export function leadTerms(
  values: Record<string, string>,
  kindOf: (field: string) => SearchKind | undefined,
  indexKey: Buffer,
): string[] {
  const terms = Object.entries(values).flatMap(([field, value]) => {
    const kind = kindOf(field);
    return kind ? termsOf(kind, value) : [];
  });
  return [...new Set(terms)].map((term) => hashTerm(indexKey, term));
}

/**
 * What `q` asks for: one term per word, every one of which a lead must have; `[]` for an empty query (no filter),
 * undefined for one that can match nothing (digits that are no phone number, or a query of punctuation alone).
 */
export function queryTerms(q: string): string[] | undefined {
  const text = q.trim();
  if (!text) return [];
  if (/^[\d\s().+-]+$/.test(text)) {
    const digits = phoneDigits(text);
    if (digits.length === 10) return [`p:${digits}`];
    if (digits.length === 4) return [`p4:${digits}`];
    return undefined;
  }
  const terms = text
    .split(/\s+/)
    .flatMap((token) =>
      token.includes('@') ? [`e:${token.toLowerCase()}`] : nameWords(token).map((w) => `n:${w}`),
    );
  return terms.length > 0 ? [...new Set(terms)] : undefined;
}
