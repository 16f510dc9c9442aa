import { describe, expect, it } from 'vitest';
import { loadForms } from '../content.ts';
import { sealedNamesOf, splitSubmission } from './lead-fields.ts';

describe('sealed fields', () => {
  it('are the health fields and the free text of each form', () => {
    const forms = loadForms();
    const sealed = (id: string) => [...sealedNamesOf(forms.get(id)!)];
    expect(sealed('insurance-verification')).toEqual(['dateOfBirth', 'memberId']);
    expect(sealed('widget-insurance')).toEqual(['memberID']);
    expect(sealed('consultation')).toEqual(['message']);
  });

  it('splits a submission into clear and sealed values', () => {
    const def = loadForms().get('consultation')!;
    expect(splitSubmission(def, { firstName: 'Sam', message: 'I need help' })).toEqual({
      fields: { firstName: 'Sam' },
      sealedFields: { message: 'I need help' },
    });
  });
});
