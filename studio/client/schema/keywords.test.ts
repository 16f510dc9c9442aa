import { readFileSync, readdirSync, existsSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../../content/paths.ts';
import { DATA_KEYWORDS, FORM_KEYWORDS, NAMED_SCHEMAS } from './keywords.ts';

function keywordsOf(schema: unknown, into: Set<string>) {
  if (Array.isArray(schema)) return schema.forEach((s) => keywordsOf(s, into));
  if (typeof schema !== 'object' || schema === null) return;
  for (const [keyword, value] of Object.entries(schema)) {
    into.add(keyword);
    if (NAMED_SCHEMAS.has(keyword)) for (const sub of Object.values(value as object)) keywordsOf(sub, into);
    else if (!DATA_KEYWORDS.has(keyword)) keywordsOf(value, into);
  }
}

describe('the studio’s form generator', () => {
  it('handles every keyword the content schemas use', () => {
    const files = [
      ...readdirSync(join(ROOT, 'schemas')).map((f) => join(ROOT, 'schemas', f)),
      ...readdirSync(join(ROOT, 'blocks'))
        .map((d) => join(ROOT, 'blocks', d, 'schema.json'))
        .filter((f) => existsSync(f)),
    ];
    const used = new Set<string>();
    for (const file of files) keywordsOf(JSON.parse(readFileSync(file, 'utf8')), used);
    const unhandled = [...used].filter((keyword) => !(keyword in FORM_KEYWORDS));
    expect(unhandled, 'keywords the studio has no form for').toEqual([]);
    expect(used.size).toBeGreaterThan(20);
  });

  it('fails for a keyword it does not handle', () => {
    const used = new Set<string>();
    keywordsOf(
      { type: 'object', properties: { a: { type: 'string', contentMediaType: 'text/html' } } },
      used,
    );
    expect([...used].filter((keyword) => !(keyword in FORM_KEYWORDS))).toEqual(['contentMediaType']);
  });
});
