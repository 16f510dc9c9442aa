// The `claim` keyword with the one Ajv: the tagged schemas compile, and a tag that is not one of ours fails.
import { describe, expect, it } from 'vitest';
import { createContentAjv } from '../schemas.ts';

describe('the claim keyword', () => {
  it('is known to the content Ajv, which compiles every tagged schema in strict mode', () => {
    const ajv = createContentAjv();
    const validate = ajv.compile({
      type: 'object',
      properties: { answer: { type: 'string', claim: 'clinical' } },
    });
    expect(validate({ answer: 'Detox takes 5-7 days.' })).toBe(true);
  });

  it('refuses a misspelled tag, as strict mode refuses an unknown keyword', () => {
    const ajv = createContentAjv();
    expect(() => ajv.compile({ type: 'string', claim: 'clinicl' })).toThrow(
      /claim.*must be equal to one of the allowed values/,
    );
  });
});
