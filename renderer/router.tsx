import {
  createRootRoute,
  createRoute,
  createRouter as createTanStackRouter,
  type AnyRoute,
} from '@tanstack/react-router';
import type { Page } from '../generated/content-types.ts';
import { pagePath } from './content/page-paths.ts';
import { pageHead, rootHead } from './head.ts';
import { RootDocument } from './shell/RootDocument.tsx';
import { PageView } from './shell/PageView.tsx';
import { NotFound } from './shell/NotFound.tsx';
import { ErrorScreen } from './shell/ErrorScreen.tsx';

// Every JSON document under pages/ becomes a route; each loads as its own small chunk on client navigation.
const pageModules = import.meta.glob<Page>('../pages/**/*.json', { import: 'default' });

export const pages = Object.entries(pageModules)
  .map(([file, load]) => ({ path: pagePath(file.replace(/^\.\.\//, '')), load }))
  .sort((a, b) => a.path.localeCompare(b.path));

export function buildRouteTree() {
  const rootRoute = createRootRoute({
    head: rootHead,
    component: RootDocument,
    notFoundComponent: NotFound,
    errorComponent: ErrorScreen,
  });
  const pageRoutes: AnyRoute[] = pages.map(({ path, load }) =>
    createRoute({
      getParentRoute: () => rootRoute,
      path,
      loader: load,
      head: ({ loaderData }) => (loaderData ? pageHead(loaderData, path) : {}),
      component: PageView,
    }),
  );
  return rootRoute.addChildren(pageRoutes);
}

export function createRouter() {
  return createTanStackRouter({
    routeTree: buildRouteTree(),
    defaultPreload: 'intent',
    scrollRestoration: true,
    // Page documents never change while the site runs: a loaded page stays fresh.
    defaultStaleTime: Infinity,
    defaultPreloadStaleTime: Infinity,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createRouter>;
  }
}
