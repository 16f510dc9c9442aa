// `npm run new-block -- <name>`: a new block type in one step. Creates blocks/<name>/ (schema, component,
// valid and invalid example), adds its import and entry to blocks/registry.ts, regenerates types and docs.
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { format, resolveConfig } from 'prettier';
import { BLOCKS_DIR, ROOT } from '../content/paths.ts';
import { distance } from 'fastest-levenshtein';
import { readArgs } from '../core/cli.ts';

export const REGISTRY_FILE = join(BLOCKS_DIR, 'registry.ts');
const KEBAB = /^[a-z][a-z0-9]*(-[a-z0-9]+)*$/;

/** 'Image Gallery', 'imageGallery' or 'image_gallery' as 'image-gallery'. */
export function toKebab(name: string): string {
  return name
    .trim()
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .replace(/[^A-Za-z0-9]+/g, '-')
    .replace(/^-+|-+$/g, '')
    .toLowerCase();
}

/** 'image-gallery' as 'ImageGallery'. */
export const toPascal = (name: string) =>
  name
    .split('-')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');

const words = (name: string) => name.split('-').join(' ');

/** Why a name cannot be a new block type, or undefined when it can. `existing` are the folders under blocks/. */
export function nameProblem(name: string, existing: readonly string[], force = false): string | undefined {
  if (!name) return 'give the block a name: npm run new-block -- <name>, such as image-gallery';
  if (!KEBAB.test(name)) {
    const fixed = toKebab(name);
    const hint = KEBAB.test(fixed) ? `; did you mean "${fixed}"?` : '';
    return `"${name}" is not a block name: use lower-case words joined by hyphens, such as image-gallery${hint}`;
  }
  if (existing.includes(name))
    return `blocks/${name}/ already exists: choose another name or edit that block`;
  // 'stat' for 'stats' is likely a slip; 'hero-video' beside 'hero' is a new block, so only near spellings count.
  const near = existing.find((e) => distance(e, name) <= (Math.min(e.length, name.length) <= 5 ? 1 : 2));
  if (near && !force)
    return `"${name}" is very close to the existing block "${near}"; did you mean to edit blocks/${near}/? Add --force to create it anyway`;
  return undefined;
}

type Registry = { marker: string; line: string; key: (line: string) => string | undefined };

/** Inserts `line` into the sorted list that follows `marker` (up to a blank line or closing brace). */
function insertSorted(lines: string[], name: string, { marker, line, key }: Registry): void {
  const start = lines.findIndex((l) => l.trim() === marker);
  if (start < 0) throw new Error(`blocks/registry.ts has no "${marker}" line to insert after`);
  let end = start + 1;
  while (end < lines.length && (lines[end] ?? '').trim() !== '' && !(lines[end] ?? '').trim().startsWith('}'))
    end++;
  let at = end;
  for (let i = start + 1; i < end; i++) {
    const k = key(lines[i] ?? '');
    if (k === name) throw new Error(`blocks/registry.ts already lists ${name}`);
    if (k !== undefined && k > name && at === end) at = i;
  }
  lines.splice(at, 0, line);
}

/** The registry source with the block's import and entry added, both lists kept sorted. */
export function insertIntoRegistry(source: string, name: string): string {
  const component = `${toPascal(name)}Block`;
  const lines = source.split('\n');
  insertSorted(lines, name, {
    marker: '// blocks:imports',
    line: `import { ${component} } from './${name}/component.tsx';`,
    key: (l) => /from '\.\/([^/']+)\//.exec(l)?.[1],
  });
  const entryIndent =
    lines.find((l) => /^\s+'?[a-z][a-z0-9-]*'?: \w+Block,$/.test(l))?.match(/^\s*/)?.[0] ?? '  ';
  insertSorted(lines, name, {
    marker: '// blocks:entries',
    line: `${entryIndent}${name.includes('-') ? `'${name}'` : name}: ${component},`,
    key: (l) => /^\s*'?([a-z][a-z0-9-]*)'?\s*:/.exec(l)?.[1],
  });
  return lines.join('\n');
}

const ANCHOR = '../../schemas/defs.schema.json#/$defs/anchorId';

/** The new folder's files, relative to blocks/<name>/, unformatted. */
export function blockFiles(name: string): Record<string, string> {
  const pascal = toPascal(name);
  const title = words(name).replace(/\b\w/g, (c) => c.toUpperCase());
  const article = /^[aeiou]/.test(name) ? 'An' : 'A';
  const schema = {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    title: `${pascal}Block`,
    description: `${article} ${words(name)} section, introduced by its heading.`,
    type: 'object',
    additionalProperties: false,
    required: ['type', 'heading'],
    properties: {
      type: { const: name, description: `Block type: always '${name}'.` },
      id: { $ref: ANCHOR, description: 'Element id of the section, for on-page anchors such as /#contact.' },
      aliases: {
        type: 'array',
        minItems: 1,
        uniqueItems: true,
        items: { $ref: ANCHOR },
        description:
          'More element ids for the same section, so older anchors such as /#facility still land on it.',
      },
      heading: { type: 'string', minLength: 1, description: 'Section heading.' },
    },
  };
  const component = `import { Section } from '../../renderer/ui/Section.tsx';
import type { BlockProps } from '../types.ts';

/**
 * ${schema.description}
 * Section renders the anchors and the heading; the block's own fields go inside it.
 */
export function ${pascal}Block({ block }: BlockProps<'${name}'>) {
  return <Section block={block}>{null}</Section>;
}
`;
  return {
    'schema.json': JSON.stringify(schema, null, 2),
    'component.tsx': component,
    'example.json': JSON.stringify({ type: name, id: name, heading: title }),
    'example.invalid.json': JSON.stringify({
      expectedError: { pointer: '/heading', message: 'must not be empty' },
      block: { type: name, heading: '' },
    }),
  };
}

async function formatted(file: string, text: string): Promise<string> {
  const options = (await resolveConfig(file)) ?? {};
  return format(text, { ...options, filepath: file });
}

async function main(): Promise<void> {
  const { values, positionals } = readArgs(
    process.argv.slice(2),
    { force: { type: 'boolean', default: false } },
    { positionals: true, usage: 'Usage: npm run new-block -- <name> [--force]' },
  );
  const name = positionals.length === 1 ? (positionals[0] ?? '') : '';
  const existing = readdirSync(BLOCKS_DIR, { withFileTypes: true })
    .filter((d) => d.isDirectory())
    .map((d) => d.name);
  const problem = nameProblem(name, existing, values.force);
  if (problem) {
    console.error(problem);
    process.exit(1);
  }

  // Everything is computed before anything is written, so a refusal leaves the tree untouched.
  const registry = existsSync(REGISTRY_FILE) ? readFileSync(REGISTRY_FILE, 'utf8') : '';
  let nextRegistry: string;
  try {
    nextRegistry = insertIntoRegistry(registry, name);
  } catch (err) {
    console.error(err instanceof Error ? err.message : String(err));
    process.exit(1);
  }
  const dir = join(BLOCKS_DIR, name);
  const files = await Promise.all(
    Object.entries(blockFiles(name)).map(
      async ([file, text]) => [join(dir, file), await formatted(join(dir, file), text)] as const,
    ),
  );

  mkdirSync(dir);
  for (const [file, text] of files) writeFileSync(file, text);
  writeFileSync(REGISTRY_FILE, nextRegistry);
  console.log(`created blocks/${name}/ (schema.json, component.tsx, example.json, example.invalid.json)`);
  console.log(`registered ${toPascal(name)}Block in blocks/registry.ts`);

  const run = (script: string) => execFileSync('npx', ['tsx', script], { cwd: ROOT, stdio: 'inherit' });
  run('scripts/gen-types.ts');
  if (existsSync(join(ROOT, 'docs', 'CONTENT.md'))) run('scripts/gen-docs.ts');
  console.log(
    `\nNext: describe the block's fields in blocks/${name}/schema.json (each with a description), run npm run gen:types, ` +
      `render them in component.tsx, and make example.json a real example.`,
  );
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) await main();
