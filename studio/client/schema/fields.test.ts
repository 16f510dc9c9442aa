// The form generator, one JSON Schema keyword at a time: the input each schema gets, the value a new field starts
// with, and what the keyword changes about the field (schema/keywords.ts says how each keyword is handled).
import { describe, expect, it } from 'vitest';
import { defaultValue } from './defaults.ts';
import {
  canAddItem,
  characterCounter,
  enumOptions,
  fieldKind,
  helpText,
  numberBounds,
  propertyFields,
  textInputType,
  variantLabel,
  variantOf,
  variantsOf,
} from './fields.ts';
import { blockType, documentSchema, resolve, type Node, type Schema } from './schemas.ts';

/** A schema of the test's own, read as if it were in schemas/ (its relative $refs go to the real files there). */
const node = (schema: Schema): Node => ({ schema, file: 'schemas/test.schema.json' });

describe('type', () => {
  it('string: a text input, starting empty', () => {
    expect(fieldKind({ type: 'string' })).toBe('text');
    expect(defaultValue(node({ type: 'string' }))).toBe('');
  });

  it('number: a number input that takes decimals, starting at 0', () => {
    expect(fieldKind({ type: 'number' })).toBe('number');
    expect(numberBounds({ type: 'number' })).toEqual({ allowDecimal: true });
    expect(defaultValue(node({ type: 'number' }))).toBe(0);
  });

  it('integer: a number input without decimals', () => {
    expect(fieldKind({ type: 'integer' })).toBe('number');
    expect(numberBounds({ type: 'integer' }).allowDecimal).toBe(false);
  });

  it('boolean: a switch, starting off', () => {
    expect(fieldKind({ type: 'boolean' })).toBe('switch');
    expect(defaultValue(node({ type: 'boolean' }))).toBe(false);
  });

  it('array: a repeatable list, starting empty', () => {
    expect(fieldKind({ type: 'array', items: { type: 'string' } })).toBe('list');
    expect(defaultValue(node({ type: 'array', items: { type: 'string' } }))).toEqual([]);
  });

  it('object: a group of fields', () => {
    expect(fieldKind({ type: 'object', properties: { a: { type: 'string' } } })).toBe('group');
    expect(defaultValue(node({ type: 'object', properties: { a: { type: 'string' } } }))).toEqual({});
  });

  it('anything else has no form, and says so', () => {
    expect(fieldKind({ type: 'null' })).toBe('none');
  });
});

describe('keywords', () => {
  it('enum: a select of the allowed values, starting at the first', () => {
    const schema = { enum: ['primary', 'crisis', 3] };
    expect(fieldKind({ type: 'string', ...schema })).toBe('select');
    expect(enumOptions(schema)).toEqual([
      { value: '"primary"', label: 'primary' },
      { value: '"crisis"', label: 'crisis' },
      { value: '3', label: '3' },
    ]);
    expect(defaultValue(node(schema))).toBe('primary');
  });

  it('const: no field, and the fixed value is what a new one holds', () => {
    expect(fieldKind({ type: 'string', const: 'faq' })).toBe('fixed');
    expect(defaultValue(node({ type: 'string', const: 'faq' }))).toBe('faq');
  });

  it('$ref: followed to the definition, the referring description winning as help text', () => {
    const referring = node({ $ref: 'defs.schema.json#/$defs/href', description: 'Where the button leads.' });
    const resolved = resolve(referring);
    expect(resolved.file).toBe('schemas/defs.schema.json');
    expect(resolved.schema.type).toBe('string');
    expect(helpText(resolved.schema)).toBe('Where the button leads.');
  });

  it('oneOf: a switch between variants, the value telling which one it is', () => {
    const schema: Schema = {
      oneOf: [
        { type: 'string', description: 'Paragraph.' },
        {
          type: 'object',
          title: 'RichTextList',
          required: ['list'],
          properties: { list: { type: 'array' } },
        },
        {
          type: 'object',
          title: 'SubHeading',
          required: ['heading'],
          properties: { heading: { type: 'string' } },
        },
      ],
    };
    expect(fieldKind(schema)).toBe('variants');
    const variants = variantsOf(node(schema));
    expect(variants.map(variantLabel)).toEqual(['Paragraph', 'List', 'Sub Heading']);
    expect(variantOf(variants, 'text')).toBe(0);
    expect(variantOf(variants, { heading: 'Costs' })).toBe(2);
    expect(variantOf(variants, { list: [] })).toBe(1);
    expect(defaultValue(node(schema))).toBe('');
  });

  it('discriminator: a new block holds its type, chosen when it is added from the catalogue', () => {
    const faq = blockType('faq');
    expect(faq?.node.schema.type).toBe('object');
    expect(faq?.example).toMatchObject({ type: 'faq' });
    expect(faq && defaultValue(faq.node)).toMatchObject({ type: 'faq' });
    expect(blockType('no-such-block')).toBeUndefined();
  });

  it('required: marks the fields always shown, and a new object holds only those', () => {
    const schema: Schema = {
      type: 'object',
      required: ['heading'],
      properties: { heading: { type: 'string' }, note: { type: 'string' }, items: { type: 'array' } },
    };
    expect(propertyFields(node(schema)).map((f) => [f.name, f.required, f.container])).toEqual([
      ['heading', true, false],
      ['note', false, false],
      ['items', false, true],
    ]);
    expect(defaultValue(node(schema))).toEqual({ heading: '' });
  });

  it('properties: one field each in schema order, less those another part of the studio shows', () => {
    const page = documentSchema('page');
    const names = propertyFields(page, ['blocks']).map((f) => f.name);
    expect(names.slice(0, 2)).toEqual(['$schema', 'title']);
    expect(names).not.toContain('blocks');
  });

  it('additionalProperties: false lists only the properties; a schema makes a list of named entries', () => {
    expect(fieldKind({ type: 'object', additionalProperties: { type: 'string' } })).toBe('map');
    const closed: Schema = {
      type: 'object',
      additionalProperties: false,
      properties: { a: { type: 'string' } },
    };
    expect(fieldKind(closed)).toBe('group');
    expect(propertyFields(node(closed)).map((f) => f.name)).toEqual(['a']);
  });

  it('minItems: a new list starts with this many items', () => {
    const schema: Schema = { type: 'array', minItems: 2, items: { type: 'string' } };
    expect(defaultValue(node(schema))).toEqual(['', '']);
  });

  it('maxItems: no more items can be added once the list has this many', () => {
    expect(canAddItem({ type: 'array', maxItems: 3 }, 2)).toBe(true);
    expect(canAddItem({ type: 'array', maxItems: 3 }, 3)).toBe(false);
    expect(canAddItem({ type: 'array' }, 300)).toBe(true);
  });

  it('minimum and maximum: the number input’s bounds, a new number starting at the minimum', () => {
    const schema: Schema = { type: 'number', minimum: 0.1, maximum: 1 };
    expect(numberBounds(schema)).toEqual({ min: 0.1, max: 1, allowDecimal: true });
    expect(defaultValue(node(schema))).toBe(0.1);
  });

  it('maxLength: a counter of the characters typed, as the validator counts them', () => {
    expect(characterCounter({ type: 'string', maxLength: 70 }, 'Café ☕')).toBe(' (6/70 characters)');
    expect(characterCounter({ type: 'string' }, 'Café')).toBe('');
  });

  it('minLength: required text starts empty, so the validator’s message says what is missing', () => {
    expect(defaultValue(node({ type: 'string', minLength: 10 }))).toBe('');
  });

  it('format: date gets a date input, any other format a text input', () => {
    expect(textInputType({ type: 'string', format: 'date' })).toBe('date');
    expect(textInputType({ type: 'string', format: 'email' })).toBe('text');
  });

  it('pattern: a link (title Href) gets the picker of pages, anchors and redirects', () => {
    expect(fieldKind({ type: 'string', title: 'Href', pattern: '^/' })).toBe('link');
    expect(fieldKind({ type: 'string', pattern: '^/' })).toBe('text');
  });

  it('description: the help text under the field, with a counter after it', () => {
    expect(helpText({ type: 'string', description: 'Shown in search results.' }, '(3/70 characters)')).toBe(
      'Shown in search results. (3/70 characters)',
    );
    expect(helpText({ type: 'string' })).toBe('');
  });
});
