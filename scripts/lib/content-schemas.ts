// Where every content schema lives, and the one Ajv instance that knows them all.
// Node-only: used by the validator, the type generator, the docs generator and the server.
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { join, relative, dirname } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import Ajv2020, { type AnySchemaObject } from 'ajv/dist/2020.js';
import addFormats from 'ajv-formats';

export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
export const BLOCKS_DIR = join(ROOT, 'blocks');
export const GENERATED_DIR = join(ROOT, 'generated');
export const BLOCKS_SCHEMA_FILE = join(GENERATED_DIR, 'blocks.schema.json');

/** Where the content documents live. */
export const PAGES_DIR = join(ROOT, 'pages');
export const SITE_FILE = join(ROOT, 'site', 'site.json');
export const FORMS_DIR = join(ROOT, 'site', 'forms');
export const PROGRAMS_FILE = join(ROOT, 'site', 'programs.json');
export const REDIRECTS_FILE = join(ROOT, 'site', 'redirects.json');

export const SCHEMA_FILES = {
  page: join(ROOT, 'schemas/page.schema.json'),
  site: join(ROOT, 'schemas/site.schema.json'),
  form: join(ROOT, 'schemas/form.schema.json'),
  defs: join(ROOT, 'schemas/defs.schema.json'),
  programs: join(ROOT, 'schemas/programs.schema.json'),
  redirects: join(ROOT, 'schemas/redirects.schema.json'),
} as const;

/** Block types are the folder names under blocks/ that hold a schema.json. */
export function blockTypes(): string[] {
  return readdirSync(BLOCKS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory() && existsSync(join(BLOCKS_DIR, d.name, 'schema.json')))
    .map((d) => d.name)
    .sort();
}

export const blockSchemaFile = (type: string): string => join(BLOCKS_DIR, type, 'schema.json');

/** The union of all block schemas, discriminated on `type`: derived from the folders, never hand-written. */
export function blocksUnionSchema(): AnySchemaObject {
  return {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: 'Blocks',
    description:
      'The sections of a page, top to bottom. Each is one block; its type names its folder under blocks/.',
    type: 'array',
    minItems: 1,
    items: {
      title: 'Block',
      type: 'object',
      required: ['type'],
      discriminator: { propertyName: 'type' },
      oneOf: blockTypes().map((t) => ({ $ref: relative(GENERATED_DIR, blockSchemaFile(t)) })),
    },
  };
}

export const readJson = (file: string): unknown => JSON.parse(readFileSync(file, 'utf8'));

let ajv: Ajv2020 | undefined;
/** One Ajv instance with every schema registered under its file URL, so relative $refs resolve as in an editor. */
export function contentAjv(): Ajv2020 {
  if (ajv) return ajv;
  ajv = new Ajv2020({ discriminator: true, allErrors: true, strict: true, strictRequired: false });
  addFormats(ajv);
  const add = (file: string, schema: unknown) =>
    ajv!.addSchema({ ...(schema as AnySchemaObject), $id: pathToFileURL(file).href });
  for (const file of Object.values(SCHEMA_FILES)) add(file, readJson(file));
  for (const t of blockTypes()) add(blockSchemaFile(t), readJson(blockSchemaFile(t)));
  add(BLOCKS_SCHEMA_FILE, blocksUnionSchema());
  return ajv;
}

export const schemaId = (file: string): string => pathToFileURL(file).href;
