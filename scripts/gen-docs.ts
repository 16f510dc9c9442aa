// Generates the reference of docs/CONTENT.md from the schemas' descriptions, the blocks' examples and the pages,
// between its BEGIN/END GENERATED markers; the hand-written guide above the markers is left alone.
// `--check` fails when the committed reference differs from what would be generated (CI uses it).
import { readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { pathToFileURL } from 'node:url';
import { SCHEMA_FILES, blockSchemaFile, blockTypes, readJson, schemaId } from '../content/schemas.ts';
import { ROOT, contentPaths } from '../content/paths.ts';
import { isObject, type JsonObject as Json } from '../content/json-pointer.ts';
import { patternHint } from '../content/validate/messages.ts';
import { derefSchema, type Located } from '../content/validate/schema-walk.ts';
import { pagePath } from '../core/page-paths.ts';
import { readArgs } from '../core/cli.ts';

export const CONTENT_DOC = join(ROOT, 'docs', 'CONTENT.md');
export const BEGIN = '<!-- BEGIN GENERATED BLOCK REFERENCE -->';
export const END = '<!-- END GENERATED BLOCK REFERENCE -->';

/** Names of shared definitions in defs.schema.json, as staff read them. */
const DEF_WORDS: Record<string, string> = {
  anchorId: 'anchor id',
  text: 'formatted text',
  href: 'link target',
  link: 'link (label and href)',
  icon: 'icon name',
  phoneLine: 'phone line',
};

type Row = {
  name: string;
  type: string;
  required: string;
  description: string;
  allowed: string;
  fallback: string;
};

const located = (file: string): Located => ({ schema: readJson(file) as Json, url: `${schemaId(file)}#` });
const child = (parent: Located, path: string, schema: Json): Located => ({
  schema,
  url: `${parent.url}${path}`,
});

/** The shared definition a field refers to (link, icon...), which is named rather than expanded. */
function defName(node: Json): string | undefined {
  const name = typeof node.$ref === 'string' ? /#\/\$defs\/([^/]+)$/.exec(node.$ref)?.[1] : undefined;
  return name && DEF_WORDS[name] ? name : undefined;
}

function fieldNames(schema: Json): string {
  return isObject(schema.properties) ? Object.keys(schema.properties).join(', ') : '';
}

/** What kind of value a field takes, in words; `expanded` when its fields are listed in rows of their own. */
function typeWords(node: Located, expanded: boolean): string {
  const def = defName(node.schema);
  if (def) return DEF_WORDS[def] ?? def;
  const { schema } = derefSchema(node);
  if ('const' in schema) return `always ${JSON.stringify(schema.const)}`;
  if (Array.isArray(schema.oneOf))
    return schema.oneOf
      .filter(isObject)
      .map((b, k) => typeWords(child(node, `/oneOf/${k}`, b), false))
      .join(', or ');
  if (Array.isArray(schema.enum))
    return schema.type === 'integer'
      ? 'whole number, one of the allowed values'
      : 'one of the allowed values';
  switch (schema.type) {
    case 'string':
      return schema.format === 'email' ? 'e-mail address' : 'text';
    case 'integer':
      return 'whole number';
    case 'number':
      return 'number';
    case 'boolean':
      return 'true or false';
    case 'array': {
      if (!isObject(schema.items)) return 'list';
      const items = derefSchema(child(node, '/items', schema.items));
      if (isObject(items.schema.discriminator)) return 'list of blocks (see [Blocks](#blocks))';
      if (items.schema.type === 'object' && !defName(schema.items))
        return expanded
          ? 'list of objects (fields below)'
          : `list of objects with ${fieldNames(items.schema)}`;
      return `list of: ${typeWords(child(node, '/items', schema.items), false)}`;
    }
    case 'object':
      return expanded ? 'object (fields below)' : `object with ${fieldNames(schema)}`;
    default:
      return 'value';
  }
}

function allowedWords(node: Located): string {
  if (defName(node.schema) === 'icon') return 'see [Icons](#icons)';
  const { schema } = derefSchema(node);
  const parts: string[] = [];
  if (Array.isArray(schema.enum)) parts.push(schema.enum.map((v) => `\`${String(v)}\``).join(', '));
  if (typeof schema.minimum === 'number' && typeof schema.maximum === 'number')
    parts.push(`${schema.minimum} to ${schema.maximum}`);
  else if (typeof schema.minimum === 'number') parts.push(`at least ${schema.minimum}`);
  if (typeof schema.minLength === 'number' && schema.minLength > 1)
    parts.push(`at least ${schema.minLength} characters`);
  if (typeof schema.maxLength === 'number') parts.push(`at most ${schema.maxLength} characters`);
  const { minItems, maxItems } = schema;
  if (typeof minItems === 'number' && minItems === maxItems) parts.push(`exactly ${minItems} items`);
  else {
    if (typeof minItems === 'number' && minItems > 1) parts.push(`at least ${minItems} items`);
    if (typeof maxItems === 'number') parts.push(`at most ${maxItems} items`);
  }
  if (typeof schema.pattern === 'string')
    parts.push(patternHint(schema.pattern) ?? `matches \`${schema.pattern}\``);
  if (schema.uniqueItems === true) parts.push('no repeats');
  return parts.join('; ');
}

const DEFAULT = /\b[Dd]efaults? to (.+?)\.(?=\s|$)/;

function describe(node: Located): string {
  if (typeof node.schema.description === 'string') return node.schema.description;
  const target = derefSchema(node).schema.description;
  return typeof target === 'string' ? target : '';
}

/** Object fields behind a field: its own (object) or its items' (list of objects), unless a shared definition. */
function nested(node: Located): { prefix: string; object: Located } | undefined {
  if (defName(node.schema)) return undefined;
  const { schema } = derefSchema(node);
  if (schema.type === 'object' && isObject(schema.properties)) return { prefix: '.', object: node };
  if (schema.type === 'array' && isObject(schema.items) && !defName(schema.items)) {
    const items = derefSchema(child(node, '/items', schema.items));
    if (items.schema.type === 'object' && isObject(items.schema.properties))
      return { prefix: '[].', object: items };
  }
  return undefined;
}

/** `if: { properties: { type: { const: 'select' } } }` in words: 'type is `select`'. */
function conditionWords(schema: Json): string | undefined {
  const properties = isObject(schema.if) && isObject(schema.if.properties) ? schema.if.properties : {};
  const [name, rule] = Object.entries(properties)[0] ?? [];
  return name && isObject(rule) && 'const' in rule ? `${name} is \`${String(rule.const)}\`` : undefined;
}

/** One row per field, and one per field of a nested object or list of objects (one level). */
export function fieldRows(node: Located, prefix = '', depth = 0): Row[] {
  const { schema, url } = derefSchema(node);
  const required = Array.isArray(schema.required) ? schema.required : [];
  const condition = conditionWords(schema);
  const thenRequired =
    isObject(schema.then) && Array.isArray(schema.then.required) ? schema.then.required : [];
  const requiredWords = (name: string) =>
    required.includes(name) ? 'yes' : condition && thenRequired.includes(name) ? `when ${condition}` : 'no';
  const properties = isObject(schema.properties) ? schema.properties : {};
  return Object.entries(properties).flatMap(([name, prop]) => {
    if (!isObject(prop)) return [];
    const field: Located = { schema: prop, url: `${url}/properties/${name}` };
    const inner = depth === 0 ? nested(field) : undefined;
    const description = describe(field);
    const row: Row = {
      name: `${prefix}${name}`,
      type: typeWords(field, Boolean(inner)),
      required: requiredWords(name),
      description,
      allowed: allowedWords(field),
      fallback: DEFAULT.exec(description)?.[1] ?? '',
    };
    return [row, ...(inner ? fieldRows(inner.object, `${prefix}${name}${inner.prefix}`, depth + 1) : [])];
  });
}

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function table(rows: Row[]): string {
  const head =
    '| Field | Type | Required | Description | Allowed values | Default |\n| --- | --- | --- | --- | --- | --- |';
  const body = rows.map(
    (r) =>
      `| \`${r.name}\` | ${cell(r.type)} | ${cell(r.required)} | ${cell(r.description)} | ${cell(r.allowed)} | ${cell(r.fallback)} |`,
  );
  return [head, ...body].join('\n');
}

const ACRONYMS: Record<string, string> = { cta: 'CTA', faq: 'FAQ' };

/** 'CtaBandBlock' as 'CTA band block'. */
function titleWords(title: string): string {
  const words = title
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .toLowerCase()
    .split(' ')
    .map((w) => ACRONYMS[w] ?? w)
    .join(' ');
  return words.charAt(0).toUpperCase() + words.slice(1);
}

/** GitHub's heading anchors. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^a-z0-9 -]/g, '')
    .replace(/ /g, '-');

function blockSection(type: string): { heading: string; text: string } {
  const file = blockSchemaFile(type);
  const root = located(file);
  const title = typeof root.schema.title === 'string' ? titleWords(root.schema.title) : type;
  const heading = `${title} (\`${type}\`)`;
  const example = readFileSync(join(file, '..', 'example.json'), 'utf8').trim();
  const text = [
    `### ${heading}`,
    typeof root.schema.description === 'string' ? root.schema.description : '',
    table(fieldRows(root)),
    `Example (\`blocks/${type}/example.json\`):`,
    '```json\n' + example + '\n```',
  ].join('\n\n');
  return { heading, text };
}

function documentSection(title: string, file: string, intro: string): string {
  const root = located(file);
  const description = typeof root.schema.description === 'string' ? root.schema.description : '';
  return [`## ${title}`, `${description} ${intro}`.trim(), table(fieldRows(root))].join('\n\n');
}

function iconSection(): string {
  const defs = readJson(SCHEMA_FILES.defs) as Json;
  const icon = isObject(defs.$defs) && isObject(defs.$defs.icon) ? defs.$defs.icon : {};
  const names = Array.isArray(icon.enum) ? icon.enum.map((n) => `\`${String(n)}\``) : [];
  return ['## Icons', 'Every field of type _icon name_ takes one of these names:', names.join(', ')].join(
    '\n\n',
  );
}

/** Every page with the blocks it is composed of, in order: a map of the site for content staff. */
function pagesSection(): string {
  const { pagesDir } = contentPaths(ROOT);
  const files = readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.json'))
    .map((file) => join(pagesDir, file));
  const rows = files
    .map((file) => ({
      file,
      path: pagePath(relative(ROOT, file).split('\\').join('/')),
      page: readJson(file) as Json,
    }))
    .sort((a, b) => a.path.localeCompare(b.path))
    .map(({ file, path, page }) => {
      const blocks = Array.isArray(page.blocks) ? page.blocks.filter(isObject) : [];
      const outline = blocks
        .map(
          (block) =>
            `\`${String(block.type)}\`${typeof block.heading === 'string' ? ` ${block.heading}` : ''}`,
        )
        .join(' → ');
      const line = page.phoneLine === 'secondary' ? ' (secondary phone line)' : '';
      return `| [\`${path}\`](../${relative(ROOT, file).split('\\').join('/')})${line} | ${cell(outline)} |`;
    });
  return [
    '## How each page is composed',
    'Every page of the site with its blocks, top to bottom. Open a page document to see the fields of each block.',
    ['| page | blocks |', '| --- | --- |', ...rows].join('\n'),
  ].join('\n\n');
}

/** The generated reference: pages, blocks, page document, form definitions, site documents, icons. */
export function reference(): string {
  const blocks = blockTypes().map(blockSection);
  const rel = (f: string) => relative(ROOT, f).split('\\').join('/');
  return [
    `_Generated by \`npm run gen:docs\` from \`${rel(SCHEMA_FILES.page)}\`, \`${rel(SCHEMA_FILES.form)}\` and \`blocks/*/schema.json\`. Do not edit by hand: change the schema's \`description\` and run \`npm run gen:docs\`._`,
    '## Blocks',
    "A page's `blocks` list holds these, top to bottom. Every block has a `type`; `id` and `aliases` give it anchors.",
    blocks.map((b) => `- [${b.heading.replace(/`/g, '')}](#${slug(b.heading)})`).join('\n'),
    ...blocks.map((b) => b.text),
    documentSection(
      'Page document fields',
      SCHEMA_FILES.page,
      'Each file under `pages/` follows this schema.',
    ),
    documentSection(
      'Form definition fields',
      SCHEMA_FILES.form,
      'Each file under `site/forms/` follows this schema.',
    ),
    documentSection(
      'Program catalogue fields',
      SCHEMA_FILES.programs,
      'The catalogue is `site/programs.json`; related-programs blocks choose from it.',
    ),
    documentSection(
      'Redirect table fields',
      SCHEMA_FILES.redirects,
      'The table is `site/redirects.json`. `npm run validate` rejects targets that are not pages, missing anchors, chains and loops.',
    ),
    iconSection(),
    pagesSection(),
  ].join('\n\n');
}

/** The document with the text between the markers replaced. */
export function splice(doc: string, generated: string): string {
  const begin = doc.indexOf(BEGIN);
  const end = doc.indexOf(END);
  if (begin < 0 || end < begin)
    throw new Error(`docs/CONTENT.md needs the markers ${BEGIN} and ${END}, in that order`);
  return `${doc.slice(0, begin + BEGIN.length)}\n\n${generated}\n\n${doc.slice(end)}`;
}

function main() {
  const current = readFileSync(CONTENT_DOC, 'utf8');
  const next = splice(current, reference());
  if (readArgs(process.argv.slice(2), { check: { type: 'boolean', default: false } }).values.check) {
    if (next !== current) {
      console.error('docs/CONTENT.md is stale: run `npm run gen:docs` and commit the result.');
      process.exit(1);
    }
    return;
  }
  if (next !== current) writeFileSync(CONTENT_DOC, next);
  console.log(`generated the reference in ${relative(ROOT, CONTENT_DOC)}`);
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) main();
