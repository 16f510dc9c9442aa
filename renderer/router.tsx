import {
  createRootRoute,
  createRoute,
  createRouter as createTanStackRouter,
  redirect,
  type AnyRoute,
} from '@tanstack/react-router';
import type { Page, RedirectTable } from '../generated/content-types.ts';
import { redirectRules } from '../core/redirects.ts';
import redirectTable from '../site/redirects.json';
import { pagePath } from '../core/page-paths.ts';
import { pageHead, rootHead } from './head.ts';
import { RootDocument } from './shell/RootDocument.tsx';
import { PageView } from './shell/PageView.tsx';
import { NotFound } from './shell/NotFound.tsx';
import { ErrorScreen } from './shell/ErrorScreen.tsx';

// Every JSON document under pages/ becomes a route; each loads as its own small chunk on client navigation.
const pageModules = import.meta.glob<Page>('../pages/**/*.json', { import: 'default' });

// Sorted by code unit, not localeCompare: its first call builds a collator, about 80 ms of a slow phone's first touch.
export const pages = Object.entries(pageModules)
  .map(([file, load]) => ({ path: pagePath(file.replace(/^\.\.\//, '')), load }))
  .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));

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
  // An old address reached by navigation inside the site replaces the history entry (the server answers 301).
  const redirectRoutes: AnyRoute[] = redirectRules(redirectTable as RedirectTable).map(({ from, to }) => {
    const [path = '/', hash] = to.split('#');
    return createRoute({
      getParentRoute: () => rootRoute,
      path: from,
      beforeLoad: () => {
        throw redirect({ to: path, hash, replace: true, statusCode: 301 });
      },
    });
  });
  return rootRoute.addChildren([...pageRoutes, ...redirectRoutes]);
}

// One tree for every router: the server renders each page with a fresh router, and reusing the tree lets the
// router reuse its processed route index instead of rebuilding it per page (which grows with the square of pages).
const routeTree = buildRouteTree();

export function createRouter() {
  let hydrated = false;
  return createTanStackRouter({
    routeTree,
    defaultPreload: 'intent',
    // Every route, not only the root, shows our screens for a failure or a missing page.
    defaultErrorComponent: ErrorScreen,
    defaultNotFoundComponent: NotFound,
    // Scroll to the top (or the #anchor) on each path change, but not when the page is first hydrated: the
    // browser has already placed it, and a visitor who began scrolling on a slow phone must not be thrown back.
    scrollRestoration: () => {
      const navigation = hydrated;
      hydrated = true;
      return navigation;
    },
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
