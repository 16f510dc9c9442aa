import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { blockSchemaFile, blockTypes, readJson } from '../content/schemas.ts';
import { BEGIN, END, reference, splice } from './gen-docs.ts';

describe('gen-docs', () => {
  const text = reference();

  it('documents every field of every block, nested ones with dotted names, and its example', () => {
    for (const type of blockTypes()) {
      const schema = readJson(blockSchemaFile(type)) as { properties: Record<string, unknown> };
      const section = text.slice(text.indexOf(`(\`${type}\`)\n`));
      for (const field of Object.keys(schema.properties))
        expect(section, `${type}.${field}`).toContain(`| \`${field}\` |`);
      expect(section).toContain(
        readFileSync(blockSchemaFile(type).replace('schema.json', 'example.json'), 'utf8').trim(),
      );
    }
    expect(text).toContain('| `cards[].title` | text | yes | Card heading. |');
    expect(text).toContain('| `sideCard.title` | text | yes |');
  });

  it('gives allowed values, defaults and conditional requirements', () => {
    expect(text).toContain(
      "| `tone` | one of the allowed values | no | Background of the section: 'default' (page color), 'muted' (soft gray) or 'brand' (soft brand color). Defaults to 'default'. | `default`, `muted`, `brand` | 'default' |",
    );
    expect(text).toContain(
      '| `fields[].options` | list of objects with label, value | when type is `select` |',
    );
    expect(text).toContain('| `phoneLine` | phone line | no |');
  });

  it('replaces only the text between the markers, and refuses a document without them', () => {
    const doc = `# Guide\nhand-written\n${BEGIN}\nold\n${END}\nafter\n`;
    expect(splice(doc, 'new')).toBe(`# Guide\nhand-written\n${BEGIN}\n\nnew\n\n${END}\nafter\n`);
    expect(() => splice('# Guide\n', 'new')).toThrow(/markers/);
  });
});
