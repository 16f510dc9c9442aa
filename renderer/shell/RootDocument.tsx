import { useEffect } from 'react';
import { ColorSchemeScript, MantineProvider, mantineHtmlProps } from '@mantine/core';
import { HeadContent, Outlet, Scripts, useMatches } from '@tanstack/react-router';
import type { Page } from '../../generated/content-types.ts';
import { phoneFor, site, SiteProvider } from '../site-context.tsx';
import { theme } from '../theme.ts';
import { Header } from './Header.tsx';
import { Footer } from './Footer.tsx';
import { FloatingWidget } from './FloatingWidget.tsx';
import { Toasts } from '../toasts.tsx';
import { HydrationSlice } from './HydrationSlice.tsx';

/** The page document of the current route, if the route is a page (not the not-found screen). */
function useCurrentPage(): Page | undefined {
  return useMatches({ select: (matches) => matches.at(-1)?.loaderData as Page | undefined });
}

/** The whole HTML document: the server renders it complete, the client hydrates it. */
export function RootDocument() {
  const page = useCurrentPage();
  // The page's scripts run at the visitor's first interaction (scripts/lib/hydration-loader.ts); this mark says they
  // have taken over the page's frame, for styles that only make sense with script and for tests. The slices (header,
  // footer, blocks, dialogs) follow in small idle steps, and a touch on one hydrates it at once.
  useEffect(() => {
    document.documentElement.dataset.hydrated = 'true';
  }, []);
  return (
    <html lang="en" {...mantineHtmlProps}>
      <head>
        <HeadContent />
        <ColorSchemeScript defaultColorScheme={site.theme.defaultColorScheme} />
      </head>
      <body>
        {/* The theme's CSS variables are in <head> (renderer/head.ts); style elements in <body> are invalid HTML. */}
        <MantineProvider
          theme={theme}
          defaultColorScheme={site.theme.defaultColorScheme}
          withCssVariables={false}
          withGlobalClasses={false}
        >
          <SiteProvider value={{ site, phone: phoneFor(page?.phoneLine) }}>
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
