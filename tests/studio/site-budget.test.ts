// The studio never reaches the site: no page of the built site loads a byte of its code.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../../content/paths.ts';

const CLIENT = join(ROOT, 'dist', 'client');
// Strings only the studio's code and its libraries carry.
const STUDIO_MARKERS = [
  '/studio-api/',
  'data-studio-block',
  'DndLiveRegion',
  'studio-draft:',
  'jsonc-parser',
];

describe('the built site', () => {
  it('holds no studio code in any page or asset (run npm run build first)', () => {
    expect(existsSync(CLIENT), 'dist/client is missing: run npm run build').toBe(true);
    const files = readdirSync(CLIENT, { recursive: true, encoding: 'utf8' }).filter((f) =>
      /\.(html|js|css)$/.test(f),
    );
    expect(files.length).toBeGreaterThan(10);
    const found = files.flatMap((file) => {
      const text = readFileSync(join(CLIENT, file), 'utf8');
      return STUDIO_MARKERS.filter((marker) => text.includes(marker)).map((marker) => `${file}: ${marker}`);
    });
    expect(found).toEqual([]);
  });
});
