// Every content schema, as the validator reads them (the same files), with $ref resolved the way an editor resolves
// it: relative to the file that holds it. The studio's forms, catalogue and help text all come from here.
import type { Json } from '../../../content/json-pointer.ts';
import { blockTypeLabel } from '../../../content/labels.ts';

export type Schema = { [keyword: string]: Json };
/** A schema and the file it sits in, which its relative $refs are read from. */
export type Node = { schema: Schema; file: string };

const found = import.meta.glob<Schema>(
  [
    '../../../blocks/*/schema.json',
    '../../../schemas/*.schema.json',
    '../../../generated/blocks.schema.json',
  ],
  { eager: true, import: 'default' },
);
const examples = import.meta.glob<Json>('../../../blocks/*/example.json', { eager: true, import: 'default' });

const repoPath = (key: string) => key.replace(/^(\.\.\/)+/, '');
const files = new Map(Object.entries(found).map(([key, schema]) => [repoPath(key), schema]));

function resolvePath(from: string, relative: string): string {
  const parts = from.split('/').slice(0, -1);
  for (const part of relative.split('/')) {
    if (part === '..') parts.pop();
    else if (part !== '.') parts.push(part);
  }
  return parts.join('/');
}

function fragment(schema: Schema, pointer: string): Schema {
  let value: Json | undefined = schema;
  for (const segment of pointer.split('/').filter(Boolean))
    value = value && typeof value === 'object' && !Array.isArray(value) ? value[segment] : undefined;
  if (!value || typeof value !== 'object' || Array.isArray(value))
    throw new Error(`no schema at #${pointer}`);
  return value;
}

/** Follows $ref until a schema without one; the referring schema's description wins, as schema authors write it. */
export function resolve(node: Node): Node {
  let { schema, file } = node;
  const description = schema.description;
  for (let hops = 0; typeof schema.$ref === 'string' && hops < 10; hops++) {
    const [path = '', pointer = ''] = schema.$ref.split('#');
    const target = path === '' ? file : resolvePath(file, path);
    const root = files.get(target);
    if (!root) throw new Error(`schema ${target} is not loaded`);
    schema = fragment(root, pointer);
    file = target;
  }
  return { schema: description === undefined ? schema : { ...schema, description }, file };
}

export const child = (node: Node, schema: Json | undefined): Node | undefined =>
  schema && typeof schema === 'object' && !Array.isArray(schema)
    ? resolve({ schema, file: node.file })
    : undefined;

export const documentSchema = (kind: string): Node => {
  const file = `schemas/${kind}.schema.json`;
  const schema = files.get(file);
  if (!schema) throw new Error(`no schema for ${kind}`);
  return { schema, file };
};

export type BlockType = { type: string; title: string; description: string; node: Node; example: Json };

/** The block catalogue: every folder under blocks/ with its schema's description and its example. */
export const blockTypes: BlockType[] = [...files]
  .filter(([file]) => /^blocks\/[^/]+\/schema\.json$/.test(file))
  .map(([file, schema]) => {
    const type = file.split('/')[1] ?? '';
    return {
      type,
      title: blockTypeLabel(type),
      description: typeof schema.description === 'string' ? schema.description : '',
      node: { schema, file },
      example: examples[`../../../blocks/${type}/example.json`] ?? { type },
    };
  })
  .sort((a, b) => a.type.localeCompare(b.type));

export const blockType = (type: unknown): BlockType | undefined => blockTypes.find((b) => b.type === type);

/** Every schema file the studio reads, for the test that every keyword they use has a form. */
export const allSchemas = (): [string, Schema][] => [...files];
