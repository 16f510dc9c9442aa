import { useLoaderData } from '@tanstack/react-router';
import type { Page } from '../../generated/content-types.ts';
import { BlockList } from '../blocks/BlockList.tsx';

export function PageView() {
  // Page routes are generated, so their loader types are not known statically; every page loader returns a Page.
  const page = useLoaderData({ strict: false }) as Page;
  return <BlockList blocks={page.blocks} />;
}
