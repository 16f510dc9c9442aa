import { describe, expect, it } from 'vitest';
import { callFormRules, noteFormRules } from './desk-rules.ts';

describe("the desk forms' rules, as @mantine/form's validate takes them", () => {
  it('asks for an outcome, and for a future callback time with "asked to call back" only', () => {
    const soon = new Date(Date.now() + 10 * 60_000).toISOString();
    expect(callFormRules.outcome('')).toBe('choose what the call came to');
    expect(callFormRules.outcome('no-answer')).toBeNull();
    expect(callFormRules.callbackAt('', { outcome: 'callback' })).toBe(
      'give the time they asked to be called back',
    );
    expect(callFormRules.callbackAt(soon, { outcome: 'callback' })).toBeNull();
    expect(callFormRules.callbackAt('2020-01-01T00:00:00.000Z', { outcome: 'callback' })).toBe(
      'the callback time has passed',
    );
    expect(callFormRules.callbackAt('', { outcome: 'no-answer' })).toBeNull();
    expect(callFormRules.callbackAt(soon, { outcome: 'no-answer' })).toBe(
      'a callback time goes with "asked to call back" only',
    );
  });

  it('takes a note of 1 to 5000 characters', () => {
    expect(noteFormRules.text('  ')).toBe('a note is text of 1 to 5000 characters');
    expect(noteFormRules.text('Called, left a message')).toBeNull();
    expect(noteFormRules.text('x'.repeat(5001))).not.toBeNull();
  });
});
