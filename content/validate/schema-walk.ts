// The schemas that apply at an instance pointer, found by walking the schemas as written: ajv reports schema
// paths relative to whichever file it was in, and the messages need the properties and branches allowed there.
import { contentSchemas, schemaId } from '../schemas.ts';
import { escapeSegment, isObject, segmentsOf, valueAt, type JsonObject } from '../json-pointer.ts';

/** A schema node and its address: file URL, '#', JSON pointer inside that file. */
export type Located = { schema: JsonObject; url: string };

let schemasById: Map<string, unknown> | undefined;
/** The schemas as written, by the id contentAjv registers them under: reading them needs no compiling. */
function schemaById(id: string): unknown {
  schemasById ??= new Map(contentSchemas().map(({ file, schema }) => [schemaId(file), schema]));
  return schemasById.get(id);
}

/** The schema at an absolute schema URL (file URL, '#', pointer), as registered with the one Ajv. */
export function resolveUrl(url: string): Located | undefined {
  const [resource = '', fragment = ''] = url.split('#');
  const root = schemaById(resource);
  const node = valueAt(root, decodeURIComponent(fragment));
  return isObject(node) ? { schema: node, url: `${resource}#${fragment}` } : undefined;
}

/** The schema one $ref points at, or undefined when the node has none (or it does not resolve). */
export const refTarget = (located: Located): Located | undefined =>
  typeof located.schema.$ref === 'string'
    ? resolveUrl(new URL(located.schema.$ref, located.url).href)
    : undefined;

/** Follows $ref until the schema itself. */
export function derefSchema(located: Located): Located {
  let current = located;
  for (let hops = 0; typeof current.schema.$ref === 'string' && hops < 32; hops++) {
    const target = resolveUrl(new URL(current.schema.$ref, current.url).href);
    if (!target) break;
    current = target;
  }
  return current;
}

export const schemaList = (v: unknown): JsonObject[] => (Array.isArray(v) ? v.filter(isObject) : []);

/** The schema and every schema that also applies to the same value (allOf, anyOf, oneOf, then, else). */
function expand(located: Located, value: unknown): Located[] {
  const self = derefSchema(located);
  const out = [self];
  const discriminator = isObject(self.schema.discriminator)
    ? self.schema.discriminator.propertyName
    : undefined;
  for (const keyword of ['allOf', 'anyOf', 'oneOf'] as const) {
    schemaList(self.schema[keyword]).forEach((_, k) => {
      const branch = derefSchema({
        schema: schemaList(self.schema[keyword])[k] ?? {},
        url: `${self.url}/${keyword}/${k}`,
      });
      if (keyword === 'oneOf' && typeof discriminator === 'string' && isObject(value)) {
        const tag = isObject(branch.schema.properties) ? branch.schema.properties[discriminator] : undefined;
        if (!isObject(tag) || tag.const !== value[discriminator]) return;
      }
      out.push(...expand(branch, value));
    });
  }
  for (const keyword of ['then', 'else'] as const)
    if (isObject(self.schema[keyword]))
      out.push(...expand({ schema: self.schema[keyword], url: `${self.url}/${keyword}` }, value));
  return out;
}

function child(located: Located, segment: string, parentValue: unknown): Located | undefined {
  const { schema, url } = located;
  if (Array.isArray(parentValue))
    return isObject(schema.items) ? { schema: schema.items, url: `${url}/items` } : undefined;
  const properties = isObject(schema.properties) ? schema.properties : {};
  const own = properties[segment];
  if (isObject(own)) return { schema: own, url: `${url}/properties/${escapeSegment(segment)}` };
  if (isObject(schema.additionalProperties))
    return { schema: schema.additionalProperties, url: `${url}/additionalProperties` };
  return undefined;
}

/** Every schema that applies to the value at `pointer`, walking from the schema at `rootUrl`. */
export function schemasAt(rootUrl: string, data: unknown, pointer: string): Located[] {
  const root = resolveUrl(rootUrl);
  if (!root) return [];
  let current = expand(root, data);
  let value = data;
  for (const seg of segmentsOf(pointer)) {
    const next = valueAt(value, `/${escapeSegment(seg)}`);
    current = current.flatMap((loc) => {
      const c = child(loc, seg, value);
      return c ? expand(c, next) : [];
    });
    value = next;
  }
  return current;
}

export const propertyNames = (schemas: Located[]) => [
  ...new Set(schemas.flatMap((l) => (isObject(l.schema.properties) ? Object.keys(l.schema.properties) : []))),
];
