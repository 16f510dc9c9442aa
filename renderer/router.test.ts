import { readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createRouter, pages } from './router.tsx';
import { pagePath } from '../core/page-paths.ts';
import { redirectRules } from '../core/redirects.ts';
import type { RedirectTable } from '../generated/content-types.ts';
import table from '../site/redirects.json' with { type: 'json' };

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
    const redirectSources = new Set(redirectRules(table as RedirectTable).map((rule) => rule.from));
    const routePaths = Object.keys(createRouter().routesByPath)
      .filter((path) => !redirectSources.has(path))
      .sort();
    expect(pages.map((page) => page.path).sort()).toEqual(expected);
    expect(routePaths).toEqual(expected);
    expect(expected).toContain('/');
    expect(expected).toContain('/services/medical-detox');
  });

  it('has a route for every redirect source, which redirects', () => {
    const routes = createRouter().routesByPath as Record<string, { options: { beforeLoad?: unknown } }>;
    for (const { from } of redirectRules(table as RedirectTable))
      expect(routes[from]?.options.beforeLoad, from).toBeTypeOf('function');
  });

  it('loads each page document through its route', async () => {
    const home = pages.find((page) => page.path === '/');
    const document = await home?.load();
    expect(document?.blocks[0]?.type).toBe('hero');
  });
});
