// The one place that uses the router's experimental SSR API: a URL in, a complete HTML document out.
import { createRequestHandler, defaultRenderHandler } from '@tanstack/react-router/ssr/server';
import type { ServerManifest } from '@tanstack/router-core';
import { createRouter, pages } from './router.tsx';

export { pages };

export async function render(
  url: string,
  manifest: ServerManifest,
): Promise<{ status: number; html: string }> {
  const handler = createRequestHandler({
    request: new Request(new URL(url, 'http://localhost')),
    createRouter,
    getRouterManifest: () => manifest,
  });
  const response = await handler(defaultRenderHandler);
  return { status: response.status, html: await response.text() };
}
