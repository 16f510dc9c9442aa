// First, so the site-wide CSS precedes the blocks' own (imported by their components, through the router).
import './styles.ts';
import { startTransition } from 'react';
import { RouterClient } from '@tanstack/react-router/ssr/client';
import type { PageData } from './medical-review.ts';
import { pageDataFile } from '../core/page-paths.ts';
import { createRouter } from './router.tsx';
import { installSiteData, type SiteData } from './site-data.ts';
import { hydrationGate } from './shell/hydration-gate.ts';

/** A JSON file of the site; undefined when it does not exist (404), an error for any other failure. */
async function fetchJson<T>(url: string): Promise<T | undefined> {
  const response = await fetch(url, { credentials: 'same-origin' });
  if (response.status === 404) return undefined;
  if (!response.ok) throw new Error(`${url}: ${response.status}`);
  return (await response.json()) as T;
}

// The visitor's taps and key presses stay the browser's until the whole page is hydrated (shell/hydration-gate.ts).
hydrationGate.install(window, () => {
  document.documentElement.dataset.hydrated = 'true';
});
const router = createRouter({
  // The first page's document is in the router's state in the HTML; the pages navigated to are fetched from the data
  // files the prerender wrote (core/prerender/), revalidated like pages.
  loadPage: (path) => fetchJson<PageData>(`/${pageDataFile(path)}`),
  // The site data file the page names: content-hashed, fetched in advance with the code by the hydration loader
  // (renderer/shell/hydration-loader.ts), so this read comes from the cache.
  hydrate: async ({ siteData }) => {
    const data = await fetchJson<SiteData>(siteData);
    if (!data) throw new Error(`${siteData} is missing`);
    installSiteData(data);
  },
});
// React DOM's client (the renderer, about a third of the code) is compiled and run in a task of its own, after this
// module's: the code's evaluation at the first touch is two shorter tasks instead of one, and a key press between them
// is answered sooner. The loader prefetches it with the entry (STARTUP_IMPORTS in core/prerender/manifest.ts).
void import('react-dom/client').then(({ hydrateRoot }) => {
  // Hydrating in a transition lets the browser handle input between small slices of work.
  startTransition(() => {
    hydrateRoot(document, <RouterClient router={router} />);
  });
});
