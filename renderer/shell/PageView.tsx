import { useMemo } from 'react';
import { useLoaderData, useLocation } from '@tanstack/react-router';
import type { Block } from '../../generated/content-types.ts';
import type { ReviewedPage } from '../../core/page-reviews.ts';
import { BlockList, blockKey } from '../../blocks/BlockList.tsx';
import { PageProvider } from '../page-context.tsx';
import { FIRST_SCREEN_END } from '../head.ts';
import { HydrationSlice } from './HydrationSlice.tsx';
import { DeferredStylesheet } from './DeferredStylesheet.tsx';
import { ReviewLine } from './ReviewLine.tsx';
import { useRouteHydrated } from './hydration-gate.ts';

/** Each block in a hydration slice of its own: a touch on a form hydrates that form, not the page around it. */
const sliced = (blocks: Block[]) =>
  blocks.map((block) => (
    <HydrationSlice key={blockKey(block)}>
      <BlockList blocks={[block]} />
    </HydrationSlice>
  ));

/**
 * How many blocks make the first screen: the first block, and the breadcrumb trail before it if there is one (a trail
 * is a line above the page's hero, not a screen of its own). The first paint waits for them, and their CSS is in the
 * head (core/critical-css.ts).
 */
export function firstScreenBlocks(blocks: readonly Block[]): number {
  const first = blocks.findIndex((block) => block.type !== 'breadcrumb');
  return first < 0 ? blocks.length : first + 1;
}

export function PageView() {
  useRouteHydrated();
  // Page routes are generated, so their loader types are not known statically; every page loader returns a Page.
  const page = useLoaderData({ strict: false }) as ReviewedPage;
  const path = useLocation({ select: (location) => location.pathname });
  // Stable, as the site's value is (renderer/shell/RootDocument.tsx): a new one would hydrate every slice at once.
  const pageValue = useMemo(() => ({ path, name: page.name }), [path, page.name]);
  const firstScreen = firstScreenBlocks(page.blocks);
  return (
    <PageProvider value={pageValue}>
      {sliced(page.blocks.slice(0, firstScreen))}
      {/* Where the first screen ends: the page's first paint waits for everything before it (renderer/head.ts). */}
      <span id={FIRST_SCREEN_END} hidden />
      {/* The rest of the page's CSS: what comes after waits for it, the first screen does not. */}
      <DeferredStylesheet />
      {sliced(page.blocks.slice(firstScreen))}
      {page.review && <ReviewLine review={page.review} />}
    </PageProvider>
  );
}
