import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILES, blockSchemaFile, blockTypes } from '../schemas.ts';
import { patternHint, suggest } from './messages.ts';

describe('messages', () => {
  it('suggests only close names', () => {
    expect(suggest('timelin', blockTypes())).toBe('timeline');
    expect(suggest('Hero', blockTypes())).toBe('hero');
    expect(suggest('protocol', blockTypes())).toBe('protocol-cards');
    expect(suggest('carousel', blockTypes())).toBeUndefined();
  });

  it('has plain words for every pattern the schemas use', () => {
    const patterns = new Set<string>();
    const collect = (node: unknown): void => {
      if (Array.isArray(node)) node.forEach(collect);
      else if (node && typeof node === 'object')
        for (const [k, v] of Object.entries(node)) {
          if (k === 'pattern' && typeof v === 'string') patterns.add(v);
          else collect(v);
        }
    };
    for (const file of [...Object.values(SCHEMA_FILES), ...blockTypes().map(blockSchemaFile)])
      collect(JSON.parse(readFileSync(file, 'utf8')));
    expect([...patterns].filter((p) => !patternHint(p))).toEqual([]);
  });
});
