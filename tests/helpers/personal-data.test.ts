// The oracle itself: it finds a value however a careless log spells it, and not where its digits turn up by chance.
import { describe, expect, it } from 'vitest';
import { expectNoPersonalData } from './personal-data.ts';

const sent = ['1975-12-28', '(415) 555-0142', 'Maria Garcia'];

describe('the personal-data oracle', () => {
  it.each([
    ['as sent', { msg: 'lead', dateOfBirth: '1975-12-28' }],
    ['as bare digits', 'phone=4155550142 stored'],
    ['lower-cased', { msg: 'from maria garcia' }],
  ])('finds a value %s', (_, line) => {
    expect(() => expectNoPersonalData([line], sent)).toThrow(/personal data in the log/);
  });

  it('does not take digits inside a longer run of letters and digits for a leak', () => {
    const line = { msg: 'lead stored', leadId: '01a21f6e-c752-75db-8f4d-193197512281' };
    expect(() => expectNoPersonalData([line], sent)).not.toThrow();
  });
});
