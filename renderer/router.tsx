import {
  createRootRouteWithContext,
  createRoute,
  createRouter as createTanStackRouter,
  notFound,
  redirect,
  type AnyRoute,
} from '@tanstack/react-router';
import { redirectRules, redirectTarget, type RedirectRule } from '../core/redirects.ts';
import { pageHead, pageScripts, rootHead } from './head.ts';
import { siteData } from './site-data.ts';
import type { PageData } from './medical-review.ts';
import { RootDocument } from './shell/RootDocument.tsx';
import { PageView } from './shell/PageView.tsx';
import { NotFound } from './shell/NotFound.tsx';
import { ErrorScreen } from './shell/ErrorScreen.tsx';

/**
 * Where page documents come from: content, never code. The prerender reads them from its content folder
 * (renderer/entry-server.tsx); the browser fetches the data file the prerender wrote for the page
 * (renderer/entry-client.tsx). Resolves undefined for a path that is no page.
 */
export type PageSource = (path: string) => Promise<PageData | undefined>;

export interface RouterContext {
  loadPage: PageSource;
}

/** A location's page path: decoded, without a trailing slash (the server answers /a/ with /a's page too). */
export function pagePathOf(pathname: string): string {
  let path = pathname;
  try {
    path = decodeURI(pathname);
  } catch {
    // A garbled escape is no page's path; leave it as it came, so it is not found.
  }
  return path.length > 1 ? path.replace(/\/+$/, '') || '/' : path;
}

// The rules are derived once per redirect table: the table is site data and stays the same while it is installed.
const rulesOf = new WeakMap<object, RedirectRule[]>();
function redirectRulesNow(): RedirectRule[] {
  const table = siteData().redirects;
  let rules = rulesOf.get(table);
  if (!rules) {
    rules = redirectRules(table);
    rulesOf.set(table, rules);
  }
  return rules;
}

/**
 * One route for every page: which paths are pages and which are old addresses is content, so the route tree is the
 * same for every release. An old address (site/redirects.json) redirects, replacing the history entry on the client
 * (the server answers 301); a path without a page document is the not-found screen (404 in the prerender).
 */
export function buildRouteTree() {
  const rootRoute = createRootRouteWithContext<RouterContext>()({
    head: rootHead,
    component: RootDocument,
    notFoundComponent: NotFound,
    errorComponent: ErrorScreen,
  });
  const pageRoute = (path: '/' | '$'): AnyRoute =>
    createRoute({
      getParentRoute: () => rootRoute,
      path,
      beforeLoad: ({ location }) => {
        const target = redirectTarget(redirectRulesNow(), pagePathOf(location.pathname));
        if (target === undefined) return;
        const [to = '/', hash] = target.split('#');
        throw redirect({ to, hash, replace: true, statusCode: 301 });
      },
      loader: async ({ location, context }) => {
        const page = await context.loadPage(pagePathOf(location.pathname));
        if (!page) throw notFound();
        return page;
      },
      head: ({ loaderData, match }) => (loaderData ? pageHead(loaderData, pagePathOf(match.pathname)) : {}),
      scripts: ({ loaderData, match }) =>
        loaderData ? pageScripts(loaderData, pagePathOf(match.pathname)) : [],
      component: PageView,
    });
  return rootRoute.addChildren([pageRoute('/'), pageRoute('$')]);
}

// One tree for every router: the server renders each page with a fresh router, and reusing the tree lets the
// router reuse its processed route index instead of rebuilding it per page.
const routeTree = buildRouteTree();

export interface RouterOptions extends RouterContext {
  /** Server side: what the page's HTML carries for the client's `hydrate` (the site data file's URL). */
  dehydrate?: () => { siteData: string };
  /** Client side: receives what `dehydrate` gave, before the page hydrates (installs the site data). */
  hydrate?: (dehydrated: { siteData: string }) => Promise<void>;
}

export function createRouter({ loadPage, dehydrate, hydrate }: RouterOptions) {
  let hydrated = false;
  return createTanStackRouter({
    routeTree,
    context: { loadPage },
    dehydrate,
    hydrate,
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
    // A page document stays the same while a release is live: a loaded page stays fresh.
    defaultStaleTime: Infinity,
    defaultPreloadStaleTime: Infinity,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createRouter>;
  }
}
