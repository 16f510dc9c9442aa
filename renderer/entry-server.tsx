// The one place that uses the router's experimental SSR API: a URL and the content in, a complete HTML document out.
// The render bundle holds code only: the page documents and the site data are given by the caller
// (core/prerender/), so the same bundle renders any release's content.
import { createRequestHandler, defaultRenderHandler } from '@tanstack/react-router/ssr/server';
import type { ServerManifest } from '@tanstack/router-core';
import { createRouter, type PageSource } from './router.tsx';
import { installSiteData, type SiteData } from './site-data.ts';

export type { PageSource, SiteData };

export interface RenderContent {
  /** The page documents, by URL path. */
  loadPage: PageSource;
  siteData: SiteData;
  /** The URL the browser fetches the same site data from while it hydrates (a content-hashed file). */
  siteDataUrl: string;
}

export async function render(
  url: string,
  manifest: ServerManifest,
  content: RenderContent,
): Promise<{ status: number; html: string }> {
  installSiteData(content.siteData);
  const handler = createRequestHandler({
    request: new Request(new URL(url, 'http://localhost')),
    createRouter: () =>
      createRouter({ loadPage: content.loadPage, dehydrate: () => ({ siteData: content.siteDataUrl }) }),
    getRouterManifest: () => manifest,
  });
  const response = await handler(defaultRenderHandler);
  return { status: response.status, html: await response.text() };
}
