import { describe, expect, it } from 'vitest';
import Ajv2020 from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';
import type { FormDefinition, FormField } from '../generated/content-types.ts';
import insurance from '../site/forms/insurance-verification.json' with { type: 'json' };
import {
  DEFAULT_INVALID_MESSAGE,
  HIDDEN_CHARACTER_MESSAGE as HIDDEN,
  HONEYPOT_FIELD,
  fieldErrors,
  normalizeSubmission,
  submissionSchema,
} from './form-rules.ts';

const field = (name: string, type: FormField['type'], extra: Partial<FormField> = {}): FormField => ({
  name,
  label: name,
  type,
  required: true,
  invalidMessage: `bad ${name}`,
  ...extra,
});

// Every field type, required and optional, so each rule is read both ways.
const def: FormDefinition = {
  $schema: '../schemas/form.schema.json',
  name: 'Every field type',
  promiseMinutes: 15,
  fields: [
    field('name', 'text', { maxLength: 10 }),
    field('phone', 'tel'),
    field('email', 'email'),
    field('birthday', 'date'),
    field('plan', 'select', {
      options: [
        { label: 'Aetna', value: 'aetna' },
        { label: 'Blue Cross Blue Shield', value: 'blue cross blue shield' },
      ],
    }),
    field('story', 'textarea', { required: false, invalidMessage: undefined }),
    field('altPhone', 'tel', { required: false }),
    field('altEmail', 'email', { required: false }),
    field('altDate', 'date', { required: false }),
    field('altPlan', 'select', { required: false, options: [{ label: 'Other', value: 'other' }] }),
    field('note', 'text', { required: false }),
  ],
  submitLabel: 'Send',
  submittingLabel: 'Sending...',
  requiredMessage: 'required!',
  success: { title: 'ok', text: 'ok' },
  failure: { title: 'no', text: 'no' },
};

const good: Record<string, string> = {
  name: 'Jane Doe',
  phone: '(555) 123-4567',
  email: 'jane@example.com',
  birthday: '1990-02-28',
  plan: 'blue cross blue shield',
  story: '',
  altPhone: '',
  altEmail: '',
  altDate: '',
  altPlan: '',
  note: '',
};

// [field, value, expected message or undefined when valid]
const table: [string, string, string | undefined][] = [
  ['name', 'Jane Doe', undefined],
  ['name', '  Al ', undefined],
  ['name', 'Ünïcødé 😀', undefined],
  ['name', '', 'required!'],
  ['name', '   ', 'required!'],
  ['name', '\t\n', 'required!'],
  ['name', 'abcdefghijk', 'bad name'],
  ['name', '😀😀😀😀😀😀😀😀😀😀', undefined], // 10 code points, 20 UTF-16 units
  ['phone', '(555) 123-4567', undefined],
  ['phone', '555-123-4567', undefined],
  ['phone', '555.123.4567', undefined],
  ['phone', '5551234567', undefined],
  ['phone', '+1 555 123 4567', undefined],
  ['phone', '1-555-123-4567', undefined],
  ['phone', '', 'required!'],
  ['phone', '  ', 'required!'],
  ['phone', '555-1234', 'bad phone'],
  ['phone', '(555 123-4567', 'bad phone'],
  ['phone', '+44 20 7946 0958', 'bad phone'],
  ['phone', ' 5551234567', 'bad phone'],
  ['phone', 'call me', 'bad phone'],
  ['email', 'jane@example.com', undefined],
  ['email', 'Jane.Doe+x@Mail.Example.org', undefined],
  ['email', '', 'required!'],
  ['email', 'jane', 'bad email'],
  ['email', 'jane@', 'bad email'],
  ['email', 'jane doe@example.com', 'bad email'],
  ['email', 'jane@localhost', 'bad email'],
  ['email', 'jane.@example.com', 'bad email'],
  ['email', 'jane@-example.com', 'bad email'],
  ['birthday', '1990-02-28', undefined],
  ['birthday', '2000-02-29', undefined],
  ['birthday', '', 'required!'],
  ['birthday', '1900-02-29', 'bad birthday'],
  ['birthday', '1990-13-01', 'bad birthday'],
  ['birthday', '1990-04-31', 'bad birthday'],
  ['birthday', '1990-1-1', 'bad birthday'],
  ['birthday', '02/28/1990', 'bad birthday'],
  ['birthday', '1990-02-28T00:00', 'bad birthday'],
  ['plan', 'aetna', undefined],
  ['plan', 'blue cross blue shield', undefined],
  ['plan', '', 'required!'],
  ['plan', 'Aetna', 'bad plan'],
  ['plan', 'tricare', 'bad plan'],
  ['story', '', undefined],
  ['story', 'x'.repeat(2000), undefined],
  ['story', 'x'.repeat(2001), DEFAULT_INVALID_MESSAGE],
  ['altPhone', '', undefined],
  ['altPhone', '   ', undefined],
  ['altPhone', '555.123.4567', undefined],
  ['altPhone', '12345', 'bad altPhone'],
  ['altEmail', '', undefined],
  ['altEmail', 'nope', 'bad altEmail'],
  ['altDate', '', undefined],
  ['altDate', '2024-02-30', 'bad altDate'],
  ['altPlan', '', undefined],
  ['altPlan', 'other', undefined],
  ['altPlan', 'aetna', 'bad altPlan'],
  ['note', '', undefined],
  ['note', 'x'.repeat(201), 'bad note'],
  // Controls, text-direction marks and overrides, separators and lone surrogates: one message, whatever the field.
  ['name', 'Jane\u0000Doe', HIDDEN],
  ['name', 'Jan\u202eeoD', HIDDEN],
  ['name', '\u2066Jane\u2069', HIDDEN],
  ['name', 'Jane\u200eDoe', HIDDEN],
  ['name', 'Jane\u200f', HIDDEN],
  ['name', 'Jane\u061c', HIDDEN],
  ['name', 'Jane\nDoe', HIDDEN],
  ['name', 'Jane\tDoe', HIDDEN],
  ['name', 'Jane\u007f', HIDDEN],
  ['name', 'Jane\u0085', HIDDEN],
  ['name', 'Jane\u009b', HIDDEN],
  ['name', 'Jane\u2028', HIDDEN],
  ['name', 'Jane\ud800', HIDDEN],
  ['name', '\u0000', HIDDEN],
  ['name', '\t', 'required!'],
  ['note', '\t', HIDDEN],
  ['note', '\u001b[2J', HIDDEN],
  ['phone', '555\n123\n4567', HIDDEN],
  ['email', 'jane@example.com\u200f', HIDDEN],
  ['plan', 'aetna\u0000', HIDDEN],
  ['story', 'first line\r\nsecond\tline\n', undefined],
  ['story', 'bell\u0007', HIDDEN],
  ['story', 'tab\u000bvertical', HIDDEN],
  ['story', 'flip\u202e', HIDDEN],
  // Joiners belong to names in several scripts.
  ['name', 'Ali\u200cReza', undefined],
  // NFC before the length: ten letters with their accents as separate marks are ten characters.
  ['name', 'e\u0301'.repeat(10), undefined],
  ['name', 'e\u0301'.repeat(11), 'bad name'],
];

const ajv = new Ajv2020({ allErrors: true, strict: true });
addFormats(ajv);
const validate = ajv.compile(submissionSchema(def));
// As the server reads a submission: in NFC (server/forms/form-validation.ts).
const serverAccepts = (values: Record<string, string>) =>
  validate(normalizeSubmission({ ...values, source: '/' }));
const failingFields = () => new Set((validate.errors ?? []).map((error) => error.instancePath.slice(1)));

describe('form rules', () => {
  it('accepts a complete, valid submission on both sides', () => {
    expect(serverAccepts(good)).toBe(true);
    expect(fieldErrors(def, good)).toEqual({});
  });

  it.each(table)('%s = %j: server and browser agree', (name, value, message) => {
    const values = { ...good, [name]: value };
    const accepted = serverAccepts(values);
    expect(accepted).toBe(message === undefined);
    if (!accepted) expect([...failingFields()]).toEqual([name]);
    expect(fieldErrors(def, values)).toEqual(message === undefined ? {} : { [name]: message });
  });

  it('treats a missing field as empty on both sides', () => {
    const values: Record<string, string> = { ...good };
    delete values.name;
    delete values.story;
    expect(serverAccepts(values)).toBe(false);
    expect(validate.errors?.map((error) => error.params)).toEqual([{ missingProperty: 'name' }]);
    expect(fieldErrors(def, values)).toEqual({ name: 'required!' });
  });

  it('requires a site path as source and rejects unknown properties', () => {
    const valid = (extra: Record<string, unknown>) => validate({ ...good, source: '/', ...extra });
    expect(valid({ source: '/services/medical-detox' })).toBe(true);
    expect(valid({ source: '/search?q=a%20b#top' })).toBe(true);
    for (const source of [
      '',
      'services',
      'https://evil.example/',
      '//evil.example/x',
      '/\\evil.example',
      '/a b',
      '/a\u0000b',
      '/\u202eexe.txt',
      '/a\u2028',
    ])
      expect(valid({ source }), source).toBe(false);
    expect(valid({ source: `/${'x'.repeat(300)}` })).toBe(false);
    expect(validate({ ...good })).toBe(false);
    expect(valid({ extra: 'x' })).toBe(false);
    expect(valid({ name: 42 })).toBe(false);
  });

  it('knows the honeypot field: left empty it is accepted, filled it is not, and the browser never checks it', () => {
    const valid = (honeypot: unknown) => validate({ ...good, source: '/', [HONEYPOT_FIELD]: honeypot });
    expect(valid('')).toBe(true);
    expect(valid('  ')).toBe(true);
    expect(valid('https://spam.example')).toBe(false);
    expect(valid(1)).toBe(false);
    expect(fieldErrors(def, { ...good, [HONEYPOT_FIELD]: 'filled' })).toEqual({});
  });

  it('derives the insurance form schema: provider values in lower case, five required fields', () => {
    const schema = submissionSchema(insurance as FormDefinition) as {
      required: string[];
      properties: Record<string, { allOf?: { enum?: string[] }[] }>;
    };
    expect(schema.required).toEqual([
      'fullName',
      'phone',
      'dateOfBirth',
      'insuranceProvider',
      'memberId',
      'source',
    ]);
    const values = schema.properties.insuranceProvider?.allOf?.[0]?.enum ?? [];
    expect(values).toContain('blue cross blue shield');
    expect(values.every((value) => value === value.toLowerCase())).toBe(true);
  });
});
