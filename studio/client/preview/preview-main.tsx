// Inside a preview frame: the draft page rendered by the site's own renderer, with the site's header, footer,
// widget, styles and theme, as visitors get it. Blocks are wrapped (display: contents) only so a click can say which
// block it landed on; links never navigate here.
import '../site-data.ts';
import { Component, memo, useLayoutEffect, useSyncExternalStore, type ReactNode } from 'react';
import { createRoot } from 'react-dom/client';
import { MantineProvider } from '@mantine/core';
import {
  createMemoryHistory,
  createRootRoute,
  createRoute,
  createRouter,
  Outlet,
  RouterProvider,
} from '@tanstack/react-router';
import type { Block, Page, Site } from '../../../generated/content-types.ts';
import { BlockList } from '../../../blocks/BlockList.tsx';
import { rootHead } from '../../../renderer/head.ts';
import { PageProvider } from '../../../renderer/page-context.tsx';
import { Footer } from '../../../renderer/shell/Footer.tsx';
import { FloatingWidget } from '../../../renderer/shell/FloatingWidget.tsx';
import { Header } from '../../../renderer/shell/Header.tsx';
import { currentSite, SiteProvider } from '../../../renderer/site-context.tsx';
import { siteTheme } from '../../../renderer/theme.ts';
import '../../../renderer/styles.ts';
import type { FromPreview, ToPreview } from './messages.ts';
import './preview.css';
import { nonceProps, styleNonce } from '../style-nonce.ts';

// The checkout's site document (../site-data.ts); the draft's replaces it while one is being edited.
const savedSite = currentSite();

const themeStyle = document.createElement('style');
if (styleNonce) themeStyle.nonce = styleNonce;
themeStyle.textContent = rootHead()
  .styles.map((s) => s.children)
  .join('\n');
document.head.append(themeStyle);

const query = new URLSearchParams(location.search);
const path = query.get('path') ?? '/';
// Only the editor that holds this frame (same origin) may drive it.
const editorOrigin = location.origin;
let draft: ToPreview | undefined;
const listeners = new Set<() => void>();
const subscribe = (listener: () => void) => {
  listeners.add(listener);
  return () => listeners.delete(listener);
};
const useDraft = () => useSyncExternalStore(subscribe, () => draft);
const tell = (message: FromPreview) => {
  if (editorOrigin) parent.postMessage(message, editorOrigin);
};

addEventListener('message', (event: MessageEvent<ToPreview>) => {
  if (event.origin !== editorOrigin || event.data?.type !== 'draft') return;
  draft = event.data;
  for (const listener of listeners) listener();
});

// A click selects the block under it; nothing in the preview navigates or submits.
document.addEventListener(
  'click',
  (event) => {
    const target = event.target instanceof Element ? event.target : null;
    // Links in the header and footer stay put too (their menus open on CSS and <details>, without a link).
    if (target?.closest('a[href]')) event.preventDefault();
    if (!target?.closest('main')) return;
    event.preventDefault();
    event.stopPropagation();
    const block = target.closest('[data-studio-block]');
    if (block) tell({ type: 'select', index: Number(block.getAttribute('data-studio-block')) });
  },
  true,
);
document.addEventListener('submit', (event) => event.preventDefault(), true);

/** What a value that cannot be rendered yet (a block, the site's header and footer) shows until it can. */
class Boundary extends Component<{ value: unknown; what: string; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate(previous: { value: unknown }) {
    if (previous.value !== this.props.value && this.state.failed) this.setState({ failed: false });
  }
  override render() {
    return this.state.failed ? (
      <p className="studio-unrenderable">{this.props.what} will show once its errors are fixed.</p>
    ) : (
      this.props.children
    );
  }
}

/** Whether the first call-to-action ends within the phone's first screen (document coordinates, not scroll). */
function firstActionOnFirstScreen(): boolean | null {
  const action = document.querySelector('main a[href^="tel:"], main a.mantine-Button-root, main button');
  if (!action) return null;
  return action.getBoundingClientRect().bottom + scrollY <= innerHeight;
}

// Only a block whose value changed renders again: a keystroke in one block leaves the others as they were.
const BlockView = memo(function BlockView({ block }: { block: Block }) {
  return (
    <Boundary value={block} what="This block">
      <BlockList blocks={[block]} />
    </Boundary>
  );
});

function DraftPage() {
  const current = useDraft();
  const page = current?.doc as Page | undefined;
  const blocks: Block[] = Array.isArray(page?.blocks) ? page.blocks : [];
  useLayoutEffect(() => {
    if (!current) return;
    if (innerWidth < 600) tell({ type: 'fold', ctaOnFirstScreen: firstActionOnFirstScreen() });
    if (current.reveal && current.selected !== null)
      document
        .querySelector(`[data-studio-block="${current.selected}"]`)
        ?.firstElementChild?.scrollIntoView({ block: 'start' });
  }, [current]);
  if (!current) return null;
  return (
    <PageProvider value={{ path, name: typeof page?.name === 'string' ? page.name : '' }}>
      {blocks.map((block, i) => (
        <div
          key={current.keys[i] ?? i}
          data-studio-block={i}
          data-studio-selected={current.selected === i ? 'true' : undefined}
          style={{ display: 'contents' }}
        >
          <BlockView block={block} />
        </div>
      ))}
    </PageProvider>
  );
}

// The shell reads only the site document and the page's phone line, so typing in a block does not render the header
// and footer again.
const Chrome = memo(function Chrome({ site, phoneLine }: { site: Site; phoneLine: Page['phoneLine'] }) {
  const value = { site, phone: site.phones?.[phoneLine ?? 'primary'] ?? savedSite.phones.primary };
  return (
    <SiteProvider value={value}>
      <Boundary value={site} what="The header">
        <Header />
      </Boundary>
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Boundary value={site} what="The footer">
        <Footer />
        <FloatingWidget />
      </Boundary>
    </SiteProvider>
  );
});

function Shell() {
  const phoneLine = useSyncExternalStore(subscribe, () => (draft?.doc as Page | undefined)?.phoneLine);
  const site = useSyncExternalStore(subscribe, () => (draft?.site as Site | undefined) ?? savedSite);
  return (
    <MantineProvider
      theme={siteTheme(savedSite)}
      defaultColorScheme={savedSite.theme.defaultColorScheme}
      withCssVariables={false}
      withGlobalClasses={false}
      {...nonceProps}
    >
      <Chrome site={site} phoneLine={phoneLine} />
    </MantineProvider>
  );
}

const rootRoute = createRootRoute({ component: Shell });
const routeTree = rootRoute.addChildren([
  createRoute({ getParentRoute: () => rootRoute, path: '/', component: DraftPage }),
  createRoute({ getParentRoute: () => rootRoute, path: '$', component: DraftPage }),
]);
const router = createRouter({ routeTree, history: createMemoryHistory({ initialEntries: [path] }) });

const root = document.getElementById('preview');
if (root) {
  // The site's router types are registered for the site's own router (renderer/router.tsx); this one shares its routes' shape only.
  createRoot(root).render(<RouterProvider router={router as never} />);
  tell({ type: 'ready' });
}
