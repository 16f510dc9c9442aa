// Where every content schema lives, the one Ajv instance that knows them all, and the validators compiled
// from them.
// The schemas are the code's, not the content's: they sit at the code root whatever content root is checked.
// Node-only: used by the validator, the type generator, the docs generator and the server.
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { join, relative, sep } from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as AjvModule from 'ajv/dist/2020.js';
import type { default as Ajv2020, AnySchemaObject, ErrorObject, Options } from 'ajv/dist/2020.js';
import type * as FormatsModule from 'ajv-formats';
import { CLAIM_KEYWORD_DEFINITION } from './claims/keyword.ts';
import { DOCUMENT_KINDS, type DocumentKind } from './kinds.ts';
import { BLOCKS_DIR, GENERATED_DIR, ROOT, SCHEMAS_DIR } from './paths.ts';

const requireHere = createRequire(import.meta.url);

export const BLOCKS_SCHEMA_FILE = join(GENERATED_DIR, 'blocks.schema.json');
/** The document validators compiled ahead of time by `npm run gen:types` (ajv standalone code). */
export const VALIDATORS_FILE = join(GENERATED_DIR, 'validators.cjs');

export const SCHEMA_FILES = {
  page: join(SCHEMAS_DIR, 'page.schema.json'),
  site: join(SCHEMAS_DIR, 'site.schema.json'),
  form: join(SCHEMAS_DIR, 'form.schema.json'),
  defs: join(SCHEMAS_DIR, 'defs.schema.json'),
  programs: join(SCHEMAS_DIR, 'programs.schema.json'),
  redirects: join(SCHEMAS_DIR, 'redirects.schema.json'),
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

export const schemaId = (file: string): string => pathToFileURL(file).href;

// `discriminator` makes an error inside a block that block's own: the `oneOf` of blocks is chosen by `type`, so a
// block with a bad field is reported against its own schema, not as a failure of every alternative; `allErrors`
// reports every problem of a document in one run, as a compiler does.
const AJV_OPTIONS: Options = { discriminator: true, allErrors: true, strict: true, strictRequired: false };

/** Every content schema with the file it is registered as: the documents', the shared defs, each block's, the union. */
export function contentSchemas(): { file: string; schema: AnySchemaObject }[] {
  return [
    ...Object.values(SCHEMA_FILES).map((file) => ({ file, schema: readJson(file) as AnySchemaObject })),
    ...blockTypes().map((t) => ({
      file: blockSchemaFile(t),
      schema: readJson(blockSchemaFile(t)) as AnySchemaObject,
    })),
    { file: BLOCKS_SCHEMA_FILE, schema: blocksUnionSchema() },
  ];
}

/** A new Ajv instance with every content schema registered under `idOf(file)`, so relative $refs resolve as in an editor. */
export function createContentAjv(idOf: (file: string) => string = schemaId, options: Options = {}): Ajv2020 {
  // Required here, not imported above: loading ajv takes longer than validating a hundred pages, and a run with
  // the generated validators (below) needs it only to explain an error.
  const { default: Ajv } = requireHere('ajv/dist/2020.js') as typeof AjvModule;
  const { default: addFormats } = requireHere('ajv-formats') as typeof FormatsModule;
  const instance = new Ajv({ ...AJV_OPTIONS, ...options });
  addFormats(instance);
  // The claim tags annotate fields for review (content/claims/); strict mode would refuse an unknown keyword.
  instance.addKeyword(CLAIM_KEYWORD_DEFINITION);
  for (const { file, schema } of contentSchemas()) instance.addSchema({ ...schema, $id: idOf(file) });
  return instance;
}

let ajv: Ajv2020 | undefined;
/** One Ajv instance with every schema registered under its file URL. Compiles each schema on first use. */
export function contentAjv(): Ajv2020 {
  return (ajv ??= createContentAjv());
}

// ---------------------------------------------------------------------------------------------------------
// Validators compiled ahead of time. Compiling the schemas costs about a second per process, more than
// validating a thousand pages, so `npm run gen:types` writes ajv's standalone code for them to
// generated/validators.cjs. That file records a hash of everything the code is compiled from, and is used only
// while the hash still matches: a schema edited since, or another ajv, falls back to compiling here.

const repoRelative = (file: string) => relative(ROOT, file).split(sep).join('/');

/** A compiled validator: true when the data is valid, else its errors are on `.errors`. */
export type DocumentValidator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };
type DocumentValidators = Record<DocumentKind, DocumentValidator>;

/** What the compiled code depends on: the schemas, Ajv's options and the versions of ajv and ajv-formats. */
export function contentSchemasHash(): string {
  // require() rather than an import: these package.json files are data, read only here.
  const version = (name: string): unknown =>
    (requireHere(`${name}/package.json`) as { version?: unknown }).version;
  const schemas = contentSchemas().map(({ file, schema }) => [repoRelative(file), schema]);
  const source = JSON.stringify({
    ajv: version('ajv'),
    formats: version('ajv-formats'),
    AJV_OPTIONS,
    keywords: [CLAIM_KEYWORD_DEFINITION],
    schemas,
  });
  return createHash('sha256').update(source).digest('hex');
}

/** The source of generated/validators.cjs: one export per document kind, and the hash it was compiled from. */
export async function standaloneValidatorsCode(banner: string): Promise<string> {
  const { default: standaloneCode } = await import('ajv/dist/standalone/index.js');
  // Registered under repo-relative ids, not this checkout's path, so the file is the same on every machine.
  const idOf = (file: string) => `file:///${repoRelative(file)}`;
  const instance = createContentAjv(idOf, { code: { source: true, lines: true } });
  const exports = Object.fromEntries(DOCUMENT_KINDS.map((kind) => [kind, idOf(SCHEMA_FILES[kind])]));
  const code = standaloneCode(instance, exports);
  return `${banner}${code}\nexports.sourceHash = ${JSON.stringify(contentSchemasHash())};\n`;
}

/** Each kind's validator from `lookup`, or undefined when one is not a function. */
function validatorsOf(lookup: (kind: DocumentKind) => unknown): DocumentValidators | undefined {
  const found = DOCUMENT_KINDS.map((kind) => [kind, lookup(kind)] as const);
  if (!found.every(([, validate]) => typeof validate === 'function')) return undefined;
  // A function here is one ajv compiled from our schemas (none is $async), so it has this shape.
  return Object.fromEntries(found) as DocumentValidators;
}

function generatedValidators(): DocumentValidators | undefined {
  let loaded: unknown;
  try {
    loaded = requireHere(VALIDATORS_FILE);
  } catch {
    return undefined;
  }
  const exported = (typeof loaded === 'object' && loaded !== null ? loaded : {}) as Record<string, unknown>;
  return exported.sourceHash === contentSchemasHash() ? validatorsOf((kind) => exported[kind]) : undefined;
}

let validators: DocumentValidators | undefined;
/** The validator of each kind of document: the generated ones when they are up to date, else compiled now. */
export function documentValidators(): DocumentValidators {
  if (validators) return validators;
  validators = generatedValidators();
  if (validators) return validators;
  console.warn(
    `${repoRelative(VALIDATORS_FILE)} is missing or out of date: compiling the schemas instead (run \`npm run gen:types\`)`,
  );
  validators = validatorsOf((kind) => contentAjv().getSchema(schemaId(SCHEMA_FILES[kind])));
  if (!validators) throw new Error('a document schema is not registered');
  return validators;
}
