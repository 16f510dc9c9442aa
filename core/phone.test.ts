import { describe, expect, it } from 'vitest';
import { telHref, usPhoneDigits } from './phone.ts';

describe('a US phone number to call back', () => {
  it('reads 10 digits however they are typed, with or without the country code', () => {
    for (const typed of ['(555) 010-2233', '555.010.2233', '5550102233', '+1 555 010 2233', '1-555-010-2233'])
      expect([typed, usPhoneDigits(typed), telHref(typed)]).toEqual([
        typed,
        '5550102233',
        'tel:+15550102233',
      ]);
  });

  it('refuses anything that is not one', () => {
    for (const typed of [
      '',
      '010-2233',
      '+44 20 7946 0958',
      '2-555-010-2233',
      '555-010-2233 ext 4',
      'call me',
    ])
      expect([typed, usPhoneDigits(typed), telHref(typed)]).toEqual([typed, null, null]);
  });
});
