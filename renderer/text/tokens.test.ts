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
});

describe('plainText', () => {
  it('replaces tokens and drops markup', () => {
    expect(
      plainText('**Call {phone}** or [email us]({email})', {
        phone: '(555) 010-0123',
        email: 'a@example.com',
      }),
    ).toBe('Call (555) 010-0123 or email us');
  });
});
