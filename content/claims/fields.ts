// Every field of a schema, as a path staff and the decision record read (`cards[].link.href`), with the claim
// tag in force there. The claim-tag decision test compares these with docs/decisions/2026-11-28-claim-tags.md.
import { isObject } from '../json-pointer.ts';
import { derefSchema, schemaList, type Located } from '../validate/schema-walk.ts';
import type { ClaimTag } from './keyword.ts';
import { tagAt } from './tags.ts';

export type SchemaField = { path: string; tag: ClaimTag | undefined };

const at = (parent: Located, suffix: string, schema: unknown): Located | undefined =>
  isObject(schema) ? { schema, url: `${parent.url}${suffix}` } : undefined;

/**
 * The leaves under `located`: values that are not objects or arrays (strings, numbers, enums), each once, with
 * the tag in force. Variants of a oneOf add no segment; array items add `[]`; named entries (a map) add `.*`.
 * `skip` names properties decided elsewhere (a page's `blocks`, decided per block type).
 */
export function schemaFields(located: Located, skip: ReadonlySet<string> = new Set()): SchemaField[] {
  const out = new Map<string, SchemaField>();
  const walk = (node: Located, path: string, inherited: ClaimTag | undefined, depth: number) => {
    if (depth > 24) throw new Error(`schema nests too deeply at ${node.url}`);
    const tag = tagAt(node, inherited);
    const self = derefSchema(node);
    const { schema } = self;
    const variants = schemaList(schema.oneOf);
    if (variants.length > 0) {
      variants.forEach((v, k) => walk(at(self, `/oneOf/${k}`, v) ?? self, path, tag, depth + 1));
      return;
    }
    const join = (name: string) => (path === '' ? name : `${path}.${name}`);
    if (isObject(schema.properties) || isObject(schema.additionalProperties)) {
      for (const [name, sub] of Object.entries(isObject(schema.properties) ? schema.properties : {})) {
        if (depth === 0 && skip.has(name)) continue;
        const child = at(self, `/properties/${name}`, sub);
        if (child) walk(child, join(name), tag, depth + 1);
      }
      const extra = at(self, '/additionalProperties', schema.additionalProperties);
      if (extra) walk(extra, join('*'), tag, depth + 1);
      return;
    }
    const items = at(self, '/items', schema.items);
    if (items) return walk(items, `${path}[]`, tag, depth + 1);
    if (!out.has(path)) out.set(path, { path, tag });
  };
  walk(located, '', undefined, 0);
  return [...out.values()];
}
