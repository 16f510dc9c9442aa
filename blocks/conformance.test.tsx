// One suite over every registered block: its valid example passes the schema and renders its text,
// and its invalid example fails at the pointer it names. A new block gets these checks for free.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ComponentType } from 'react';
import { describe, expect, it } from 'vitest';
import { registry } from './registry.ts';
import { BLOCK_TYPES, type Block } from '../generated/content-types.ts';
import { ROOT, contentPaths } from '../content/paths.ts';
import { blockTypes } from '../content/schemas.ts';
import { validateBlock } from '../content/validate/validate-content.ts';
import { renderToDom, visibleText } from '../tests/helpers/render-to-dom.tsx';

const CHECKOUT = contentPaths(ROOT);

type InvalidExample = { expectedError: { pointer: string; message: string }; block: unknown };
const read = <T,>(type: string, file: string): T =>
  JSON.parse(readFileSync(join(import.meta.dirname, type, file), 'utf8')) as T;

/**
 * Every string a content author wrote that a visitor should read. Token-bearing labels and link lists (which a
 * block may shorten, as link-cards does) are checked by the block's own test.
 */
function visibleStrings(value: unknown, key = ''): string[] {
  if (typeof value === 'string')
    return [
      'type',
      'id',
      'href',
      'icon',
      'variant',
      'tone',
      'formId',
      'moreLabel',
      'aliases',
      'category',
      'prefer',
      'picks',
      'style',
      'priority',
      'emphasis',
      'severity',
      'itemMarker',
    ].includes(key) || /[{[*]/.test(value)
      ? []
      : [value];
  if (key === 'links') return [];
  if (Array.isArray(value)) return value.flatMap((item) => visibleStrings(item, key));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => visibleStrings(v, k));
  return [];
}

describe('block registry', () => {
  it('registers exactly the block folders, and the generated types agree', () => {
    expect(Object.keys(registry).sort()).toEqual(blockTypes());
    expect([...BLOCK_TYPES].sort()).toEqual(blockTypes());
  });
});

describe.each(blockTypes())('block %s', (type) => {
  it('has its schema, component, valid and invalid examples', () => {
    for (const file of ['schema.json', 'component.tsx', 'example.json', 'example.invalid.json'])
      expect(existsSync(join(import.meta.dirname, type, file)), `${type}/${file}`).toBe(true);
  });

  it('accepts its valid example and renders every text in it', async () => {
    const example = read<Block>(type, 'example.json');
    expect(example.type).toBe(type);
    expect(validateBlock(example, CHECKOUT)).toEqual([]);
    const Component = registry[example.type] as ComponentType<{ block: Block }>;
    const text = visibleText(await renderToDom(<Component block={example} />));
    for (const expected of visibleStrings(example)) expect(text).toContain(expected.replace(/\s+/g, ' '));
  });

  it('rejects its invalid example at the expected pointer', () => {
    const { expectedError, block } = read<InvalidExample>(type, 'example.invalid.json');
    const problems = validateBlock(block, CHECKOUT);
    expect(problems.map((p) => p.pointer)).toContain(expectedError.pointer);
    expect(problems.find((p) => p.pointer === expectedError.pointer)?.message).toContain(
      expectedError.message,
    );
  });
});
