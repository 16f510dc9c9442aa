import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRouter, pages } from './router.tsx';
import { pagePath } from './content/page-paths.ts';

const ROOT = join(import.meta.dirname, '..');
const pageFilesOnDisk = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((entry) =>
    entry.isDirectory()
      ? pageFilesOnDisk(join(dir, entry.name))
      : entry.name.endsWith('.json')
        ? [join(dir, entry.name)]
        : [],
  );

describe('route generation', () => {
  it('creates exactly one route per page document, at the path its file names', () => {
    const expected = pageFilesOnDisk(join(ROOT, 'pages'))
      .map((file) => pagePath(relative(ROOT, file)))
      .sort();
    const routePaths = Object.keys(createRouter().routesByPath).sort();
    expect(pages.map((page) => page.path).sort()).toEqual(expected);
    expect(routePaths).toEqual(expected);
    expect(expected).toContain('/');
    expect(expected).toContain('/services/medical-detox');
  });

  it('loads each page document through its route', async () => {
    const home = pages.find((page) => page.path === '/');
    const document = await home?.load();
    expect(document?.blocks[0]?.type).toBe('hero');
  });
});
