import { execFileSync } from 'node:child_process';
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { ROOT } from '../content/paths.ts';
import { blockFiles, insertIntoRegistry, nameProblem, toKebab, toPascal } from './new-block.ts';
import { copyProject } from './lib/project-copy.ts';
import { useTempDirForAll } from '../tests/helpers/temp-dir.ts';

const REGISTRY = `// The one list of block components.
import type { BlockRegistry } from '../blocks/types.ts';
// blocks:imports
import { CardGridBlock } from './card-grid/component.tsx';
import { FaqBlock } from './faq/component.tsx';
import { TimelineBlock } from './timeline/component.tsx';

export const registry = {
  // blocks:entries
  'card-grid': CardGridBlock,
  faq: FaqBlock,
  timeline: TimelineBlock,
} satisfies BlockRegistry;
`;

describe('insertIntoRegistry', () => {
  it('adds the import and the entry in sorted position, quoting hyphenated keys', () => {
    const next = insertIntoRegistry(REGISTRY, 'image-gallery');
    expect(next).toBe(
      REGISTRY.replace(
        'import { TimelineBlock }',
        "import { ImageGalleryBlock } from './image-gallery/component.tsx';\nimport { TimelineBlock }",
      ).replace(
        '  timeline: TimelineBlock,',
        "  'image-gallery': ImageGalleryBlock,\n  timeline: TimelineBlock,",
      ),
    );
  });

  it('adds at the start and at the end of the lists, unquoted when the name allows it', () => {
    const first = insertIntoRegistry(REGISTRY, 'alert');
    expect(first).toContain(
      "// blocks:imports\nimport { AlertBlock } from './alert/component.tsx';\nimport { CardGridBlock }",
    );
    expect(first).toContain("// blocks:entries\n  alert: AlertBlock,\n  'card-grid'");
    const last = insertIntoRegistry(REGISTRY, 'video');
    expect(last).toContain(
      "import { TimelineBlock } from './timeline/component.tsx';\nimport { VideoBlock } from './video/component.tsx';\n\n",
    );
    expect(last).toContain('  timeline: TimelineBlock,\n  video: VideoBlock,\n} satisfies');
  });

  it('refuses a registry without markers or a block already listed', () => {
    expect(() => insertIntoRegistry(REGISTRY.replace('// blocks:entries\n', ''), 'video')).toThrow(
      /blocks:entries/,
    );
    expect(() => insertIntoRegistry(REGISTRY, 'faq')).toThrow(/already lists faq/);
  });
});

describe('names', () => {
  const existing = ['card-grid', 'faq', 'stats', 'timeline'];
  it('accepts a new kebab-case name, and refuses others with a suggestion', () => {
    expect(nameProblem('image-gallery', existing)).toBeUndefined();
    expect(nameProblem('faq-grid', existing)).toBeUndefined();
    expect(nameProblem('ImageGallery', existing)).toMatch(/did you mean "image-gallery"\?/);
    expect(nameProblem('image_gallery', existing)).toMatch(/did you mean "image-gallery"\?/);
    expect(nameProblem('faq', existing)).toMatch(/already exists/);
    expect(nameProblem('stat', existing)).toMatch(/close to the existing block "stats"/);
    expect(nameProblem('stat', existing, true)).toBeUndefined();
    expect(nameProblem('', existing)).toMatch(/give the block a name/);
  });

  it('converts between spellings', () => {
    expect(toKebab('Image Gallery')).toBe('image-gallery');
    expect(toPascal('image-gallery')).toBe('ImageGallery');
  });

  it('writes a schema with a real description and no placeholders', () => {
    const files = blockFiles('image-gallery');
    const schema = JSON.parse(files['schema.json'] ?? '') as {
      description: string;
      properties: Record<string, unknown>;
    };
    expect(schema.description).toBe('An image gallery section, introduced by its heading.');
    expect(Object.keys(schema.properties)).toEqual(['type', 'id', 'aliases', 'heading']);
    expect(Object.values(files).join('\n')).not.toMatch(/TODO|TO BE FILLED|lorem/i);
    expect(files['component.tsx']).toContain(
      "export function ImageGalleryBlock({ block }: BlockProps<'image-gallery'>)",
    );
  });
});

describe('npm run new-block, in a copy of the project', () => {
  const folder = useTempDirForAll('new-block-');
  let dir = '';
  beforeAll(() => {
    dir = folder();
    copyProject(dir);
    writeFileSync(join(dir, 'blocks/registry.ts'), REGISTRY);
  });
  const tsx = join(ROOT, 'node_modules/.bin/tsx');
  const run = (...args: string[]) => execFileSync(tsx, args, { cwd: dir, encoding: 'utf8', stdio: 'pipe' });

  it('refuses an existing name and changes nothing', () => {
    expect(() => run('scripts/new-block.ts', 'faq')).toThrow(/already exists/);
    expect(readFileSync(join(dir, 'blocks/registry.ts'), 'utf8')).toBe(REGISTRY);
  });

  it('creates the folder, registers the block, regenerates types and docs; its examples pass the validator', () => {
    run('scripts/new-block.ts', 'image-gallery');
    for (const file of ['schema.json', 'component.tsx', 'example.json', 'example.invalid.json'])
      expect(existsSync(join(dir, 'blocks/image-gallery', file)), file).toBe(true);
    expect(readFileSync(join(dir, 'blocks/registry.ts'), 'utf8')).toBe(
      insertIntoRegistry(REGISTRY, 'image-gallery'),
    );
    const types = readFileSync(join(dir, 'generated/content-types.ts'), 'utf8');
    expect(types).toContain('export interface ImageGalleryBlock');
    expect(types).toMatch(/BLOCK_TYPES = \[[^\]]*'image-gallery'/);
    expect(readFileSync(join(dir, 'docs/CONTENT.md'), 'utf8')).toContain(
      '### Image gallery block (`image-gallery`)',
    );
    const check = `
      import { readFileSync } from 'node:fs';
      import { ROOT, contentPaths } from './content/paths.ts';
      import { validateBlock } from './content/validate/validate-content.ts';
      const read = (f) => JSON.parse(readFileSync('blocks/image-gallery/' + f, 'utf8'));
      const invalid = read('example.invalid.json');
      console.log(JSON.stringify({ valid: validateBlock(read('example.json'), contentPaths(ROOT)), invalid: validateBlock(invalid.block, contentPaths(ROOT)), expected: invalid.expectedError }));`;
    writeFileSync(join(dir, 'check.ts'), check);
    const result = JSON.parse(run('check.ts')) as {
      valid: unknown[];
      invalid: { pointer: string; message: string }[];
      expected: { pointer: string; message: string };
    };
    expect(result.valid).toEqual([]);
    expect(result.invalid.map((p) => p.pointer)).toEqual([result.expected.pointer]);
    expect(result.invalid[0]?.message).toContain(result.expected.message);
  });
});
