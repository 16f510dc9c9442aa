import { useEffect, useMemo } from 'react';
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from '@mantine/core';
import { HeadContent, Outlet, Scripts, useMatches } from '@tanstack/react-router';
import type { Page } from '../../generated/content-types.ts';
import { currentSite, phoneFor, SiteProvider } from '../site-context.tsx';
import { siteTheme } from '../theme.ts';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { FloatingWidget } from './FloatingWidget.tsx';
import { Toasts } from '../toasts.tsx';
import { HydrationSlice } from './HydrationSlice.tsx';
import { hydrationGate } from './hydration-gate.ts';

/** The page document of the current route, if the route is a page (not the not-found screen). */
function useCurrentPage(): Page | undefined {
  return useMatches({ select: (matches) => matches.at(-1)?.loaderData as Page | undefined });
}

/** The whole HTML document: the server renders it complete, the client hydrates it. */
export function RootDocument() {
  const page = useCurrentPage();
  // The page's scripts run at the visitor's first interaction (renderer/shell/hydration-loader.ts). The frame is in; the
  // slices (header, footer, blocks, dialogs) follow in small steps, and once they are all in, the page's events go to
  // React and `html[data-hydrated]` says so, for styles that only make sense with script and for tests.
  useEffect(() => hydrationGate.frameHydrated(), []);
  // The same value while the page's phone line is the same. The router updates its state once hydrated, and a new value
  // here then reached every slice still waiting to hydrate: React hydrated them all at once, in one task of 200-400
  // ms on a slow phone, to give them the news.
  const phoneLine = page?.phoneLine;
  // The installed site data does not change while a page is open (renderer/site-data.ts).
  const site = currentSite();
  const siteValue = useMemo(() => ({ site, phone: phoneFor(phoneLine, site) }), [site, phoneLine]);
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <HeadContent />
        <ColorSchemeScript defaultColorScheme={site.theme.defaultColorScheme} />
      </head>
      <body>
        {/* The theme's CSS variables are in <head> (renderer/head.ts); style elements in <body> are invalid HTML. */}
        <MantineProvider
          theme={siteTheme(site)}
          defaultColorScheme={site.theme.defaultColorScheme}
          withCssVariables={false}
          withGlobalClasses={false}
        >
          <SiteProvider value={siteValue}>
            <a href="#main" className="skip-link">
              {site.labels.skipToContent}
            </a>
            <HydrationSlice>
              <Header />
            </HydrationSlice>
            <main id="main" tabIndex={-1}>
              <Outlet />
            </main>
            <HydrationSlice>
              <Footer />
            </HydrationSlice>
            <FloatingWidget />
            <Toasts />
          </SiteProvider>
        </MantineProvider>
        <Scripts />
      </body>
    </html>
  );
}
