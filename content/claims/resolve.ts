// The schema that describes one value of a document, and the claim tag in force there: $refs followed, a oneOf's
// variant chosen by the value (blocks by their `type`, a rich-text item by its shape).
import { escapeSegment, isObject, type JsonObject } from '../json-pointer.ts';
import { derefSchema, schemaList, type Located } from '../validate/schema-walk.ts';
import type { ClaimTag } from './keyword.ts';
import { tagAt } from './tags.ts';

const JSON_TYPE_FITS: Record<string, (v: unknown) => boolean> = {
  string: (v) => typeof v === 'string',
  number: (v) => typeof v === 'number',
  integer: (v) => Number.isInteger(v),
  boolean: (v) => typeof v === 'boolean',
  array: Array.isArray,
  object: isObject,
};

/** Whether a variant can describe the value: its type, its required properties and its discriminator. */
function fits(variant: JsonObject, value: unknown, discriminator: string | undefined): boolean {
  if (typeof variant.type === 'string' && !(JSON_TYPE_FITS[variant.type]?.(value) ?? true)) return false;
  if (!isObject(value)) return true;
  const properties = isObject(variant.properties) ? variant.properties : {};
  if (discriminator) {
    const tagSchema = properties[discriminator];
    return isObject(tagSchema) && tagSchema.const === value[discriminator];
  }
  const required = Array.isArray(variant.required) ? variant.required : [];
  return required.every((key) => typeof key === 'string' && key in value);
}

/**
 * The schema node for `value` and the tag in force there. A value no variant fits (a draft that is not valid yet)
 * stops at the oneOf: its fields then carry the tag inherited so far, and no field's own.
 */
export function resolveFor(
  located: Located | undefined,
  value: unknown,
  inherited: ClaimTag | undefined,
): { node: Located | undefined; tag: ClaimTag | undefined } {
  if (!located) return { node: undefined, tag: inherited };
  const tag = tagAt(located, inherited);
  const self = derefSchema(located);
  const variants = schemaList(self.schema.oneOf);
  if (variants.length === 0) return { node: self, tag };
  const discriminator = isObject(self.schema.discriminator)
    ? String(self.schema.discriminator.propertyName)
    : undefined;
  const k = variants.findIndex((v, i) =>
    fits(derefSchema({ schema: v, url: `${self.url}/oneOf/${i}` }).schema, value, discriminator),
  );
  if (k < 0) return { node: undefined, tag };
  return resolveFor({ schema: variants[k] ?? {}, url: `${self.url}/oneOf/${k}` }, value, tag);
}

/** The schema of a property or item of a value described by `node`; undefined when the schema has none. */
export function childSchema(
  node: Located | undefined,
  key: string | number,
  parent: unknown,
): Located | undefined {
  if (!node) return undefined;
  const { schema, url } = node;
  if (Array.isArray(parent))
    return isObject(schema.items) ? { schema: schema.items, url: `${url}/items` } : undefined;
  const own = isObject(schema.properties) ? schema.properties[String(key)] : undefined;
  if (isObject(own)) return { schema: own, url: `${url}/properties/${escapeSegment(String(key))}` };
  if (isObject(schema.additionalProperties))
    return { schema: schema.additionalProperties, url: `${url}/additionalProperties` };
  return undefined;
}
