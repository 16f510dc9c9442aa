import { describe, expect, it } from 'vitest';
import { loadForms } from '../../content.ts';
import { searchKindsOf } from './lead-fields.ts';

describe('searchable fields', () => {
  it('are the names, phones and e-mail addresses of each form, from its definition', () => {
    const forms = loadForms();
    const searchable = (id: string) => {
      const kindOf = searchKindsOf(forms.get(id));
      return Object.fromEntries(
        forms.get(id)!.fields.flatMap((field) => {
          const kind = kindOf(field.name);
          return kind ? [[field.name, kind]] : [];
        }),
      );
    };
    expect(searchable('insurance-verification')).toEqual({ fullName: 'name', phone: 'phone' });
    expect(searchable('consultation')).toEqual({
      firstName: 'name',
      lastName: 'name',
      phone: 'phone',
      email: 'email',
    });
    expect(searchable('widget-insurance')).toMatchObject({ phone: 'phone', email: 'email' });
  });

  it('fall back to the usual field names for a form no longer defined', () => {
    const kindOf = searchKindsOf(undefined);
    expect(['fullName', 'phone', 'email', 'memberId'].map(kindOf)).toEqual([
      'name',
      'phone',
      'email',
      undefined,
    ]);
  });
});
