import { useLoaderData, useLocation } from '@tanstack/react-router';
import type { Page } from '../../generated/content-types.ts';
import { BlockList } from '../../blocks/BlockList.tsx';
import { PageProvider } from '../page-context.tsx';
import { FIRST_SCREEN_END } from '../head.ts';

export function PageView() {
  // Page routes are generated, so their loader types are not known statically; every page loader returns a Page.
  const page = useLoaderData({ strict: false }) as Page;
  const path = useLocation({ select: (location) => location.pathname });
  return (
    <PageProvider value={{ path, name: page.name }}>
      <BlockList blocks={page.blocks.slice(0, 1)} />
      {/* Where the first screen ends: the page's first paint waits for everything before it (renderer/head.ts). */}
      <span id={FIRST_SCREEN_END} hidden />
      <BlockList blocks={page.blocks.slice(1)} />
    </PageProvider>
  );
}
