// The pages send only the CSS variables of the palette colours the site uses (renderer/theme.ts palette): every
// palette colour the built pages and stylesheets refer to must be one of them, or its buttons and badges would lose
// their colours.
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DEFAULT_THEME } from '@mantine/core';
import { describe, expect, it } from 'vitest';
import { palette } from '../../renderer/theme.ts';

const CLIENT_DIR = join(import.meta.dirname, '..', '..', 'dist', 'client');
const COLOUR_REFERENCE = /var\(--mantine-color-([a-z]+)-/g;

describe('theme colours', () => {
  it('the built pages and stylesheets use no palette colour whose variables are left out', () => {
    const files = readdirSync(CLIENT_DIR, { recursive: true, encoding: 'utf8' }).filter((file) =>
      /\.(html|css)$/.test(file),
    );
    expect(files.length).toBeGreaterThan(30);
    const used = new Set<string>();
    for (const file of files)
      for (const [, colour] of readFileSync(join(CLIENT_DIR, file), 'utf8').matchAll(COLOUR_REFERENCE))
        if (colour && colour in DEFAULT_THEME.colors) used.add(colour);
    expect(used.size).toBeGreaterThan(0);
    expect([...used].filter((colour) => !palette().includes(colour))).toEqual([]);
  });
});
