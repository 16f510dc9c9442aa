import { describe, expect, it } from 'vitest';
import { fieldName, liveSentence, missingSentence, refusalLines, requiresSentence } from './words.ts';

describe('the content screens’ words', () => {
  it('names who must approve, in plain words', () => {
    expect(requiresSentence(['clinical', 'other'])).toBe(
      'Needs approval from a clinical reviewer (medical claims) and any reviewer (other content).',
    );
    expect(requiresSentence(['contact'])).toBe('Needs approval from an admin (contact details).');
    expect(missingSentence(['clinical', 'contact'])).toBe(
      'Still missing an approval from a clinical reviewer and an admin.',
    );
    expect(missingSentence([])).toBeUndefined();
    expect(liveSentence({ on: 2, of: 3 })).toBe('Live on 2 of 3');
  });

  it('says why a publish was refused: a stale approval, a missing one, a conflicting field', () => {
    const lines = refusalLines(
      {
        error: 'approvals missing',
        missing: ['clinical', 'contact'],
        conflicts: [{ path: 'pages/services/medical-detox.json', pointer: '/blocks/2/items/0/answer' }],
      },
      [{ by: 'maya@example.com', at: null, covers: ['clinical', 'other'], stale: true }],
    );
    expect(lines).toEqual([
      'The approval of medical claims by maya@example.com is stale: the content changed after it. A clinical reviewer must approve again.',
      'No approval yet from an admin (contact details).',
      'pages/services/medical-detox.json: a field was changed on the live site too (block 3, item 1, answer).',
    ]);
    expect(refusalLines({ error: 'the store failed' }, [])).toEqual(['The store failed.']);
  });

  it('reads a pointer with the content model’s labels', () => {
    expect(fieldName('/meta/canonical')).toBe(
      'search result details, canonical link (the page search engines should show)',
    );
    expect(fieldName('')).toBe('the whole document');
  });
});
