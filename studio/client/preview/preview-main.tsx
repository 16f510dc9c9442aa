// Inside a preview frame: the draft page rendered by the site's own renderer, with the site's header, footer,
// widget, styles and theme, as visitors get it. Blocks are wrapped (display: contents) only so a click can say which
// block it landed on; links never navigate here.
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
import type { Block, Page } from '../../../generated/content-types.ts';
import { BlockList } from '../../../blocks/BlockList.tsx';
import { rootHead } from '../../../renderer/head.ts';
import { PageProvider } from '../../../renderer/page-context.tsx';
import { Footer } from '../../../renderer/shell/Footer.tsx';
import { FloatingWidget } from '../../../renderer/shell/FloatingWidget.tsx';
import { Header } from '../../../renderer/shell/Header.tsx';
import { phoneFor, site, SiteProvider } from '../../../renderer/site-context.tsx';
import { theme } from '../../../renderer/theme.ts';
import '../../../renderer/styles.ts';
import type { FromPreview, ToPreview } from './messages.ts';
import './preview.css';

const themeStyle = document.createElement('style');
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
    if (!target?.closest('main')) return;
    event.preventDefault();
    event.stopPropagation();
    const block = target.closest('[data-studio-block]');
    if (block) tell({ type: 'select', index: Number(block.getAttribute('data-studio-block')) });
  },
  true,
);
document.addEventListener('submit', (event) => event.preventDefault(), true);

class BlockBoundary extends Component<{ block: unknown; children: ReactNode }, { failed: boolean }> {
  override state = { failed: false };
  static getDerivedStateFromError() {
    return { failed: true };
  }
  override componentDidUpdate(previous: { block: unknown }) {
    if (previous.block !== this.props.block && this.state.failed) this.setState({ failed: false });
  }
  override render() {
    return this.state.failed ? (
      <p className="studio-unrenderable">This block will show once its errors are fixed.</p>
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
    <BlockBoundary block={block}>
      <BlockList blocks={[block]} />
    </BlockBoundary>
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

// The shell reads only the page's phone line, so typing in a block does not render the header and footer again.
const Chrome = memo(function Chrome({ phoneLine }: { phoneLine: Page['phoneLine'] }) {
  return (
    <SiteProvider value={{ site, phone: phoneFor(phoneLine) }}>
      <Header />
      <main id="main" tabIndex={-1}>
        <Outlet />
      </main>
      <Footer />
      <FloatingWidget />
    </SiteProvider>
  );
});

function Shell() {
  const phoneLine = useSyncExternalStore(subscribe, () => (draft?.doc as Page | undefined)?.phoneLine);
  return (
    <MantineProvider
      theme={theme}
      defaultColorScheme={site.theme.defaultColorScheme}
      withCssVariables={false}
      withGlobalClasses={false}
    >
      <Chrome phoneLine={phoneLine} />
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
