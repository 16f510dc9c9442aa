// Renders a React element to HTML inside what every block expects: a router, Mantine and the site context.
import type { ReactNode } from 'react';
import { renderToString } from 'react-dom/server';
import { MantineProvider } from '@mantine/core';
import { createMemoryHistory, createRootRoute, createRouter, RouterProvider } from '@tanstack/react-router';
import { theme } from '../../renderer/theme.ts';

export async function renderToHtml(element: ReactNode, path = '/services/medical-detox'): Promise<string> {
  const rootRoute = createRootRoute({
    component: () => <MantineProvider theme={theme}>{element}</MantineProvider>,
  });
  const router = createRouter({
    routeTree: rootRoute,
    history: createMemoryHistory({ initialEntries: [path] }),
  });
  await router.load();
  return renderToString(<RouterProvider router={router} />);
}

/** Visible text of rendered HTML, tags removed and whitespace folded, for assertions on what a visitor reads. */
export const visibleText = (html: string): string =>
  html
    .replace(/<style[\s\S]*?<\/style>|<script[\s\S]*?<\/script>/g, ' ')
    .replace(/<[^>]+>/g, ' ')
    .replace(/&#x27;|&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/&quot;/g, '"')
    .replace(/\s+/g, ' ')
    .trim();
