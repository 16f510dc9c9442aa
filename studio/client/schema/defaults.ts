// The value a new field or item starts with: the least that has the right shape. Required text starts empty, so
// the validator's message tells staff what is missing.
import type { Json } from '../../../content/json-pointer.ts';
import { child, resolve, type Node } from './schemas.ts';

export function defaultValue(input: Node): Json {
  const { schema, file } = resolve(input);
  const node = { schema, file };
  if ('const' in schema) return schema.const ?? null;
  if (Array.isArray(schema.enum)) return schema.enum[0] ?? null;
  if (Array.isArray(schema.oneOf)) {
    const first = child(node, schema.oneOf[0]);
    return first ? defaultValue(first) : null;
  }
  switch (schema.type) {
    case 'string':
      return '';
    case 'number':
    case 'integer':
      return typeof schema.minimum === 'number' ? schema.minimum : 0;
    case 'boolean':
      return false;
    case 'array': {
      const items = child(node, schema.items);
      const count = typeof schema.minItems === 'number' ? schema.minItems : 0;
      return items ? Array.from({ length: count }, () => defaultValue(items)) : [];
    }
    case 'object': {
      const value: Record<string, Json> = {};
      const properties = schema.properties as Record<string, Json> | undefined;
      const required = Array.isArray(schema.required) ? schema.required : [];
      for (const key of required) {
        const property = child(node, properties?.[String(key)]);
        if (property) value[String(key)] = defaultValue(property);
      }
      return value;
    }
    default:
      return null;
  }
}
