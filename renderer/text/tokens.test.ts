import { describe, expect, it } from 'vitest';
import { parseText, plainText } from './tokens.ts';

describe('parseText', () => {
  it('leaves plain text alone', () => {
    expect(parseText('Help is here.')).toEqual([{ kind: 'text', text: 'Help is here.' }]);
  });

  it('finds phone and email tokens anywhere in a string', () => {
    expect(parseText('Call {phone} or write to {email}.')).toEqual([
      { kind: 'text', text: 'Call ' },
      { kind: 'phone' },
      { kind: 'text', text: ' or write to ' },
      { kind: 'email' },
      { kind: 'text', text: '.' },
    ]);
  });

  it('parses bold and links, with tokens inside them', () => {
    expect(parseText('**Call {phone}** or [verify insurance](/insurance-verification)')).toEqual([
      { kind: 'bold', children: [{ kind: 'text', text: 'Call ' }, { kind: 'phone' }] },
      { kind: 'text', text: ' or ' },
      {
        kind: 'link',
        href: '/insurance-verification',
        children: [{ kind: 'text', text: 'verify insurance' }],
      },
    ]);
  });

  it('keeps unknown braces as text', () => {
    expect(parseText('{fax} stays')).toEqual([{ kind: 'text', text: '{fax} stays' }]);
  });

  it("parses a form's promise, by form id, in text and in bold", () => {
    expect(parseText('**Answer within {promise:insurance-verification}**, or {promise}')).toEqual([
      {
        kind: 'bold',
        children: [
          { kind: 'text', text: 'Answer within ' },
          { kind: 'promise', formId: 'insurance-verification' },
        ],
      },
      { kind: 'text', text: ', or {promise}' },
    ]);
  });
});

describe('plainText', () => {
  it('replaces tokens and drops markup', () => {
    expect(
      plainText('**Call {phone}** or [email us]({email})', {
        phone: '(555) 010-0123',
        email: 'a@example.com',
        promise: () => undefined,
      }),
    ).toBe('Call (555) 010-0123 or email us');
  });

  it("makes words of a form's promise, and leaves an unknown form's token as typed", () => {
    const values = {
      phone: '(555) 010-0123',
      email: 'a@example.com',
      promise: (formId: string) => (formId === 'consultation' ? '15 minutes' : undefined),
    };
    expect(plainText('A call within {promise:consultation}.', values)).toBe('A call within 15 minutes.');
    expect(plainText('Within {promise:callback}.', values)).toBe('Within {promise:callback}.');
  });
});
