// The validation rules of a form definition, written twice from one place: as a JSON Schema for the server's ajv
// and as plain checks for the browser. Browser-safe on purpose (no ajv): this file is bundled into the client.
// form-rules.test.ts proves both readings agree.
import type { FormDefinition, FormField } from '../generated/content-types.ts';

/** Name of the extra property every submission carries: the path of the page the form was sent from. */
export const SOURCE_FIELD = 'source';
export const SOURCE_MAX_LENGTH = 300;
/**
 * A field people never see or fill (hidden from sight, screen readers and autofill). Bots fill it; a submission
 * with it filled is answered like a success and discarded.
 */
export const HONEYPOT_FIELD = 'confirm_website';
/** Header carrying one key per submission attempt, so a double submit or a retry stores one lead. */
export const IDEMPOTENCY_HEADER = 'Idempotency-Key';
/** Fallback when a field has no invalidMessage of its own. */
export const DEFAULT_INVALID_MESSAGE = 'Please check this field';
export const UNKNOWN_FIELD_MESSAGE = 'This field is not part of the form';
/** For a value holding a character of UNSAFE_CHARACTERS, whatever the field. */
export const HIDDEN_CHARACTER_MESSAGE =
  'Please retype this field: it contains hidden control or text-direction characters';

// Every pattern below is valid with the u flag (ajv) and the v flag (HTML pattern attributes), so the form block may
// reuse them as attributes.
/** US numbers: (555) 123-4567, 555-123-4567, 555.123.4567, 5551234567, +1 555 123 4567. */
export const PHONE_PATTERN = '^(?:\\+?1[\\s.\\-]?)?(?:\\(\\d{3}\\)|\\d{3})[\\s.\\-]?\\d{3}[\\s.\\-]?\\d{4}$';
export const DATE_PATTERN = '^\\d{4}-\\d{2}-\\d{2}$';
/**
 * Characters no field may hold (as the body of a character class): control characters (C0, DEL, C1), the marks,
 * embeddings, overrides and isolates that reorder text (U+061C, U+200E/F, U+202A-U+202E, U+2066-U+2069), the line
 * and paragraph separators (U+2028/9) and unpaired surrogates. No one types them into a name or a phone number, and in
 * the staff's CSV export or terminal they hide or rewrite what is shown. Letters' joiners (U+200C/D) stay allowed:
 * names in several scripts need them.
 */
const UNSAFE_CHARACTERS = '\\p{Cc}\\p{Cs}\\u061C\\u200E\\u200F\\u2028-\\u202E\\u2066-\\u2069';
// A textarea's lines and tabs are its own: the same set without tab, line feed and carriage return.
const UNSAFE_IN_TEXTAREA =
  '\\x00-\\x08\\x0B\\x0C\\x0E-\\x1F\\x7F-\\x9F\\p{Cs}\\u061C\\u200E\\u200F\\u2028-\\u202E\\u2066-\\u2069';
// A site path: one leading slash, not two (//host) nor /\host, which browsers and URL parsers read as another host.
export const SOURCE_PATTERN = `^/(?!\\/|\\\\)[^\\s${UNSAFE_CHARACTERS}]*$`;
// Whitespace-only counts as empty, so a required field needs one visible character.
const FILLED_PATTERN = '\\S';
const BLANK_PATTERN = '^\\s*$';

// The same expression as ajv-formats' "email" format (full mode, its default); copied because ajv-formats is not
// meant for the browser bundle.
const EMAIL_REGEX =
  /^[a-z0-9!#$%&'*+/=?^_`{|}~-]+(?:\.[a-z0-9!#$%&'*+/=?^_`{|}~-]+)*@(?:[a-z0-9](?:[a-z0-9-]*[a-z0-9])?\.)+[a-z0-9](?:[a-z0-9-]*[a-z0-9])?$/i;
const PHONE_REGEX = new RegExp(PHONE_PATTERN, 'u');
const DATE_REGEX = new RegExp(DATE_PATTERN, 'u');
const FILLED_REGEX = new RegExp(FILLED_PATTERN, 'u');

export const maxLengthOf = (field: FormField): number =>
  field.maxLength ?? (field.type === 'textarea' ? 2000 : 200);

const isBlank = (value: string): boolean => !FILLED_REGEX.test(value);

const unsafePatternOf = (field: FormField): string =>
  `[${field.type === 'textarea' ? UNSAFE_IN_TEXTAREA : UNSAFE_CHARACTERS}]`;
const UNSAFE_REGEX = new RegExp(`[${UNSAFE_CHARACTERS}]`, 'u');
const UNSAFE_IN_TEXTAREA_REGEX = new RegExp(`[${UNSAFE_IN_TEXTAREA}]`, 'u');
const hasUnsafe = (field: FormField, value: string): boolean =>
  (field.type === 'textarea' ? UNSAFE_IN_TEXTAREA_REGEX : UNSAFE_REGEX).test(value);

/**
 * Text as it is checked and stored: Unicode NFC, so that "é" typed as one character or as "e" and an accent is the
 * same value, of the same length, on both sides.
 */
export const normalizeText = (value: string): string => value.normalize('NFC');

/** A submission with every string value in NFC; anything else as it was. */
export function normalizeSubmission(body: Record<string, unknown>): Record<string, unknown> {
  // No prototype: a property named __proto__ stays a plain key, for the schema to refuse.
  const normal = Object.create(null) as Record<string, unknown>;
  for (const [name, value] of Object.entries(body))
    normal[name] = typeof value === 'string' ? normalizeText(value) : value;
  return normal;
}
// JSON Schema's maxLength counts code points, not UTF-16 units.
const lengthOf = (value: string): number => [...value].length;

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
/** The calendar check of ajv-formats' "date" format: a real day of a real month. */
function isCalendarDate(value: string): boolean {
  if (!DATE_REGEX.test(value)) return false;
  const [year, month, day] = value.split('-').map(Number) as [number, number, number];
  const leap = year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0);
  const days = month === 2 && leap ? 29 : DAYS_IN_MONTH[month - 1];
  return days !== undefined && day >= 1 && day <= days;
}

/** What a filled value must look like, by field type. */
function hasShape(field: FormField, value: string): boolean {
  switch (field.type) {
    case 'tel':
      return PHONE_REGEX.test(value);
    case 'email':
      return EMAIL_REGEX.test(value);
    case 'date':
      return isCalendarDate(value);
    case 'select':
      return (field.options ?? []).some((option) => option.value === value);
    case 'text':
    case 'textarea':
      return true;
  }
}

function shapeSchema(field: FormField): Record<string, unknown> | undefined {
  switch (field.type) {
    case 'tel':
      return { pattern: PHONE_PATTERN };
    case 'email':
      return { format: 'email' };
    case 'date':
      return { pattern: DATE_PATTERN, format: 'date' };
    case 'select':
      return { enum: (field.options ?? []).map((option) => option.value) };
    case 'text':
    case 'textarea':
      return undefined;
  }
}

function fieldSchema(field: FormField): Record<string, unknown> {
  const base = { type: 'string', maxLength: maxLengthOf(field), not: { pattern: unsafePatternOf(field) } };
  const shape = shapeSchema(field);
  // The shape sits in its own subschema so that a shape's pattern never overwrites the filled-in pattern.
  if (field.required) return { ...base, pattern: FILLED_PATTERN, ...(shape ? { allOf: [shape] } : {}) };
  // An optional field may be left empty, which browsers send as ''.
  return shape ? { ...base, anyOf: [{ pattern: BLANK_PATTERN }, shape] } : base;
}

/** The JSON Schema (2020-12) a submission of this form must match; the server's authority. */
export function submissionSchema(def: FormDefinition): Record<string, unknown> {
  const properties: Record<string, unknown> = Object.fromEntries(
    def.fields.map((field) => [field.name, fieldSchema(field)]),
  );
  properties[SOURCE_FIELD] = { type: 'string', maxLength: SOURCE_MAX_LENGTH, pattern: SOURCE_PATTERN };
  // Part of every form, so never an unknown property; the server discards a filled one before this schema runs.
  properties[HONEYPOT_FIELD] = { type: 'string', pattern: BLANK_PATTERN };
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    type: 'object',
    additionalProperties: false,
    required: [...def.fields.filter((field) => field.required).map((field) => field.name), SOURCE_FIELD],
    properties,
  };
}

/** Whether a value passes the field's rules; a missing value counts as ''. */
export function isFieldValid(field: FormField, value: string): boolean {
  if (lengthOf(value) > maxLengthOf(field) || hasUnsafe(field, value)) return false;
  if (isBlank(value)) return !field.required;
  return hasShape(field, value);
}

/**
 * The message for a field whose value broke a rule. It depends only on the value, so the server can word an ajv error
 * exactly as the browser worded the same mistake: empty and required, hidden characters, or anything else wrong.
 */
export function fieldMessage(def: FormDefinition, field: FormField, value: unknown): string {
  const blank = value === undefined || (typeof value === 'string' && isBlank(value));
  if (blank && field.required) return def.requiredMessage;
  if (typeof value === 'string' && hasUnsafe(field, value)) return HIDDEN_CHARACTER_MESSAGE;
  return field.invalidMessage ?? DEFAULT_INVALID_MESSAGE;
}

/**
 * The browser's check: field name to message, for every field that breaks a rule; {} when all is well. Values are
 * read in NFC, as the server reads them.
 */
export function fieldErrors(def: FormDefinition, values: Record<string, string>): Record<string, string> {
  const errors: Record<string, string> = {};
  for (const field of def.fields) {
    const value = normalizeText(values[field.name] ?? '');
    if (!isFieldValid(field, value)) errors[field.name] = fieldMessage(def, field, value);
  }
  return errors;
}
