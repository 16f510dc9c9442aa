import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { SCHEMA_FILES, blockSchemaFile, blockTypes } from '../schemas.ts';
import { blockTypeLabel, fieldLabel } from '../labels.ts';
import { patternHint, suggest } from './messages.ts';
import { PAGE, lines, page } from './test-documents.ts';

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

describe('messages in words for staff', () => {
  const title = (value: string) =>
    lines(PAGE, page('').replace('"Medical Detox in California"', JSON.stringify(value)))
      .filter((line) => line.includes(' /title '))
      .map((line) => line.replace(/^.*\/title {2}/, ''));

  it('says how long a text is and how long it must be, never “must NOT have fewer than”', () => {
    expect(title('')).toEqual(['is empty: write at least 10 characters']);
    expect(title('Short')).toEqual(['is too short: 5 characters, at least 10']);
    expect(title('x'.repeat(80))).toEqual(['is too long: 80 characters, at most 70']);
  });

  it('names a missing field by its label and its name', () => {
    const [line] = lines(PAGE, page('{ "type": "cta-band", "heading": "Call us" }')).filter((l) =>
      l.includes('/blocks/0 '),
    );
    expect(line).toMatch(/\/blocks\/0 \(cta-band\) {2}“Call label” \(callLabel\) is required$/);
  });
});

describe('labels', () => {
  it('reads as words, not code', () => {
    expect(fieldLabel('href')).toBe('Link');
    expect(fieldLabel('changefreq')).toBe('How often it changes');
    expect(fieldLabel('trustPoints')).toBe('Trust points');
    expect(blockTypeLabel('cta-band')).toBe('Call-to-action band');
    expect(blockTypeLabel('hero')).toBe('Hero');
  });
});
