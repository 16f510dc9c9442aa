// What the form generator makes of a schema, as plain values: which input a schema gets, its help text, bounds and
// counter, which properties an object shows, when a list may grow, and which variant of a oneOf a value is. Pure, so
// schema/fields.test.ts checks each keyword; SchemaField.tsx and leaf-fields.tsx render what these decide.
import { isRecord } from '../../../content/json-pointer.ts';
import { child, type Node, type Schema } from './schemas.ts';

/** The input a schema gets. */
export type FieldKind =
  'fixed' | 'variants' | 'select' | 'link' | 'text' | 'number' | 'switch' | 'list' | 'map' | 'group' | 'none';

/** const: a fixed value, not a field; oneOf: a switch of variants; enum: a select; else by type. */
export function fieldKind(schema: Schema): FieldKind {
  if ('const' in schema) return 'fixed';
  if (Array.isArray(schema.oneOf)) return 'variants';
  if (Array.isArray(schema.enum)) return 'select';
  switch (schema.type) {
    case 'string':
      return schema.title === 'Href' ? 'link' : 'text';
    case 'number':
    case 'integer':
      return 'number';
    case 'boolean':
      return 'switch';
    case 'array':
      return 'list';
    case 'object':
      return isRecord(schema.additionalProperties) ? 'map' : 'group';
    default:
      return 'none';
  }
}

/** The schema's description, the help text under its field, with `extra` after it. */
export function helpText(schema: Schema, extra?: string): string {
  const text = typeof schema.description === 'string' ? schema.description : '';
  return extra ? `${text} ${extra}` : text;
}

/** maxLength: a counter of the characters typed, as the validator counts them. */
export function characterCounter(schema: Schema, value: string): string {
  const max = typeof schema.maxLength === 'number' ? schema.maxLength : undefined;
  return max ? ` (${[...value].length}/${max} characters)` : '';
}

/** format: date gets a date input; any other text a plain one. */
export const textInputType = (schema: Schema): 'date' | 'text' =>
  schema.format === 'date' ? 'date' : 'text';

/** minimum and maximum bound the number input; an integer takes no decimals. */
export function numberBounds(schema: Schema): { min?: number; max?: number; allowDecimal: boolean } {
  return {
    ...(typeof schema.minimum === 'number' ? { min: schema.minimum } : {}),
    ...(typeof schema.maximum === 'number' ? { max: schema.maximum } : {}),
    allowDecimal: schema.type !== 'integer',
  };
}

/** enum: the options of the select, each value as JSON (so a number stays a number) and its label. */
export const enumOptions = (schema: Schema): { value: string; label: string }[] =>
  (Array.isArray(schema.enum) ? schema.enum : []).map((option) => ({
    value: JSON.stringify(option),
    label: String(option),
  }));

/** maxItems: the list may grow until it has this many items. */
export const canAddItem = (schema: Schema, length: number): boolean =>
  typeof schema.maxItems !== 'number' || length < schema.maxItems;

/** One property of an object as the form shows it. */
export type PropertyField = { name: string; node: Node; required: boolean; container: boolean };

/**
 * properties, in schema order, each resolved ($ref followed); required marks the ones always shown. Only listed
 * properties have a field (additionalProperties: false), and `skip` leaves some to another part of the studio.
 */
export function propertyFields(node: Node, skip: readonly string[] = []): PropertyField[] {
  const properties = isRecord(node.schema.properties) ? node.schema.properties : {};
  const required = new Set(Array.isArray(node.schema.required) ? node.schema.required.map(String) : []);
  return Object.entries(properties).flatMap(([name, raw]) => {
    const property = child(node, raw);
    if (!property || skip.includes(name)) return [];
    const container = property.schema.type === 'object' || property.schema.type === 'array';
    return [{ name, node: property, required: required.has(name), container }];
  });
}

/** oneOf: its variants, each resolved. */
export const variantsOf = (node: Node): Node[] =>
  (Array.isArray(node.schema.oneOf) ? node.schema.oneOf : [])
    .map((raw) => child(node, raw))
    .filter((v): v is Node => v !== undefined);

/** Which variant of a oneOf a value is: a string is the text variant; an object the one whose required keys it has. */
export function variantOf(variants: Node[], value: unknown): number {
  const index = variants.findIndex((v) =>
    typeof value === 'string'
      ? v.schema.type === 'string'
      : isRecord(value) &&
        v.schema.type === 'object' &&
        (Array.isArray(v.schema.required) ? v.schema.required : []).every((k) => String(k) in value),
  );
  return Math.max(0, index);
}

/** The name of a variant on its switch: its title, or a short description for text. */
export const variantLabel = (v: Node) =>
  v.schema.type === 'string'
    ? typeof v.schema.description === 'string' && v.schema.description.length < 20
      ? v.schema.description.replace(/\.$/, '')
      : 'Text'
    : String(v.schema.title ?? 'Group')
        .replace(/^(RichText|Table)/, '')
        .replace(/([a-z])([A-Z])/g, '$1 $2');
