import { useLoaderData, useLocation } from '@tanstack/react-router';
import type { Page } from '../../generated/content-types.ts';
import { BlockList } from '../blocks/BlockList.tsx';
import { PageProvider } from '../page-context.tsx';

export function PageView() {
  // Page routes are generated, so their loader types are not known statically; every page loader returns a Page.
  const page = useLoaderData({ strict: false }) as Page;
  const path = useLocation({ select: (location) => location.pathname });
  return (
    <PageProvider value={{ path, name: page.name }}>
      <BlockList blocks={page.blocks} />
    </PageProvider>
  );
}
