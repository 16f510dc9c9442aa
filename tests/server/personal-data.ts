// The oracle for "no patient data in logs": every line the server logged, at every level, searched for every value a
// test sent in a lead. Reusable by any suite that sends leads and keeps the log (in-process-server.ts does, at debug).
import { expect } from 'vitest';

/** Values shorter than this are skipped: "Al" or "12" would be found in any log by chance, not by a leak. */
const MIN_LENGTH = 5;

/**
 * The spellings a value could take in a log line: as sent, as JSON escapes it, lower-cased, NFC and NFD (the server
 * normalises), and a phone number or date as bare digits (a careless log would strip its punctuation).
 */
function spellingsOf(value: string): string[] {
  const trimmed = value.trim();
  const forms = new Set([trimmed, trimmed.normalize('NFC'), trimmed.normalize('NFD')]);
  for (const form of [...forms]) {
    forms.add(JSON.stringify(form).slice(1, -1));
    forms.add(form.toLowerCase());
  }
  const digits = trimmed.replace(/\D/g, '');
  if (digits.length >= 7 && /^[\d\s().+\-/]+$/.test(trimmed)) forms.add(digits);
  return [...forms].filter((form) => [...form].length >= MIN_LENGTH);
}

/**
 * Fails, naming the value and the first line holding it, when any log line holds any of `sentValues` (field values of
 * leads: names, phones, e-mails, dates of birth, member IDs, messages, source pages). Lines may be parsed objects or
 * the raw text.
 */
export function expectNoPersonalData(logLines: readonly unknown[], sentValues: Iterable<unknown>): void {
  const lines = logLines.map((line) =>
    (typeof line === 'string' ? line : JSON.stringify(line)).toLowerCase(),
  );
  const leaks: string[] = [];
  const seen = new Set<string>();
  for (const value of sentValues) {
    if (typeof value !== 'string' || seen.has(value)) continue;
    seen.add(value);
    for (const spelling of spellingsOf(value)) {
      const needle = spelling.toLowerCase();
      const line = lines.find((text) => text.includes(needle));
      if (line !== undefined) {
        leaks.push(`${JSON.stringify(value)} in: ${line.slice(0, 300)}`);
        break;
      }
    }
  }
  expect(leaks, `personal data in ${leaks.length} log line(s)`).toEqual([]);
}

/** Every string value of the lead-like objects given (one level deep, as a form body is). */
export function valuesOf(...bodies: readonly unknown[]): string[] {
  return bodies.flatMap((body) =>
    typeof body === 'object' && body !== null
      ? Object.values(body).filter((value): value is string => typeof value === 'string')
      : [],
  );
}
