// The router manifest of the pages, from the client build's Vite manifest: which CSS each page inlines and which code
// its hydration loader fetches.
import type { ServerManifest } from '@tanstack/router-core';
import { hydrationLoader } from '../../renderer/shell/hydration-loader.ts';

export type ViteManifestChunk = {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
};
/**
 * What the client entry imports as it starts, each evaluated in a task of its own (renderer/entry-client.tsx), as
 * keys of Vite's manifest: prefetched with the entry, so the first touch does not wait for the network.
 */
export const STARTUP_IMPORTS = ['node_modules/react-dom/client.js'] as const;

/**
 * The router manifest of every page: its CSS inlined (the page needs no second request before it can show), and the
 * loader that runs the client entry at the visitor's first interaction (renderer/shell/hydration-loader.ts) in place of
 * a script tag; it fetches the `data` files (the site data) in advance with the code.
 */
export function routerManifest(
  viteManifest: Record<string, ViteManifestChunk>,
  readAsset: (file: string) => string,
  data: readonly string[] = [],
): ServerManifest {
  const entry = Object.values(viteManifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('The client build has no entry chunk');
  const imports = new Set<string>();
  const visit = (key: string) => {
    const chunk = viteManifest[key];
    if (!chunk || imports.has(chunk.file)) return;
    imports.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  entry.imports?.forEach(visit);
  for (const source of STARTUP_IMPORTS) {
    // The manifest names a module by its path from the project; in a copy whose node_modules is a link (a benchmark's
    // copy of the project), Vite follows the link, so the path only ends the same way.
    const key = entry.dynamicImports?.find((name) => name === source || name.endsWith(`/${source}`));
    if (!key) throw new Error(`The client entry no longer imports ${source}`);
    visit(key);
  }
  // Those chunks import the entry's own (shared) code; the loader names the entry first, once.
  imports.delete(entry.file);
  const url = (file: string) => `/${file}`;
  const css = entry.css ?? [];
  return {
    inlineCss: { styles: Object.fromEntries(css.map((file) => [url(file), readAsset(file)])) },
    routes: {
      __root__: {
        css: css.map(url),
        scripts: [{ children: hydrationLoader(url(entry.file), [...imports].map(url), data) }],
      },
    },
  };
}
