// The oracle for "no patient data in logs": every line the server logged, at every level, searched for every value a
// test sent in a lead. Reusable by any suite that sends leads and keeps the log (in-process-server.ts does, at debug).
import { expect } from 'vitest';

/** Values shorter than this are skipped: "Al" or "12" would be found in any log by chance, not by a leak. */
const MIN_LENGTH = 5;

/**
 * The spellings a value could take in a log line: as sent, as JSON escapes it, lower-cased, NFC and NFD (the server
 * normalises).
 */
function spellingsOf(value: string): string[] {
  const trimmed = value.trim();
  const forms = new Set([trimmed, trimmed.normalize('NFC'), trimmed.normalize('NFD')]);
  for (const form of [...forms]) {
    forms.add(JSON.stringify(form).slice(1, -1));
    forms.add(form.toLowerCase());
  }
  return [...forms].filter((form) => [...form].length >= MIN_LENGTH);
}

/**
 * A phone number or date as bare digits (a careless log would strip its punctuation): found only as a token of its
 * own, never inside a longer run of letters and digits, where eight digits turn up by chance (a lead's random id held
 * "19751228", a date of birth sent in the same run).
 */
function bareDigitsOf(value: string): string | undefined {
  const trimmed = value.trim();
  const digits = trimmed.replace(/\D/g, '');
  return digits.length >= 7 && /^[\d\s().+\-/]+$/.test(trimmed) ? digits : undefined;
}

const isWordCharacter = (character: string | undefined) =>
  character !== undefined && /[\p{L}\p{N}]/u.test(character);

/**
 * Fails, naming the value and the first line holding it, when any log line holds any of `sentValues` (field values of
 * leads: names, phones, e-mails, dates of birth, member IDs, messages, source pages). Lines may be parsed objects or
 * the raw text. One pass over the log whatever the number of values: each spelling is indexed by its first
 * characters, and only the spellings whose start matches at a position are compared there.
 */
export function expectNoPersonalData(logLines: readonly unknown[], sentValues: Iterable<unknown>): void {
  const byStart = new Map<string, { spelling: string; value: string; token: boolean }[]>();
  const index = (spelling: string, value: string, token: boolean) => {
    const start = spelling.slice(0, MIN_LENGTH);
    byStart.set(start, [...(byStart.get(start) ?? []), { spelling, value, token }]);
  };
  for (const value of new Set(sentValues)) {
    if (typeof value !== 'string') continue;
    for (const spelling of new Set(spellingsOf(value).map((form) => form.toLowerCase())))
      index(spelling, value, false);
    const digits = bareDigitsOf(value);
    if (digits !== undefined) index(digits, value, true);
  }
  const leaks = new Map<string, string>();
  for (const line of logLines) {
    const text = (typeof line === 'string' ? line : JSON.stringify(line)).toLowerCase();
    for (let at = 0; at + MIN_LENGTH <= text.length; at += 1) {
      const candidates = byStart.get(text.slice(at, at + MIN_LENGTH));
      for (const { spelling, value, token } of candidates ?? []) {
        if (leaks.has(value) || !text.startsWith(spelling, at)) continue;
        if (token && (isWordCharacter(text[at - 1]) || isWordCharacter(text[at + spelling.length]))) continue;
        leaks.set(value, text.slice(0, 300));
      }
    }
  }
  const found = [...leaks].map(([value, line]) => `${JSON.stringify(value)} in: ${line}`);
  expect(found, `personal data in the log`).toEqual([]);
}

/** Every string value of the lead-like objects given (one level deep, as a form body is). */
export function valuesOf(...bodies: readonly unknown[]): string[] {
  return bodies.flatMap((body) =>
    typeof body === 'object' && body !== null
      ? Object.values(body).filter((value): value is string => typeof value === 'string')
      : [],
  );
}
