import type { Page } from '../generated/content-types.ts';
import { site } from './site-context.tsx';

const absolute = (path: string) => `${site.url}${path === '/' ? '' : path}` || site.url;

/** Tags every document has; the not-found title stands until a page route sets its own. */
export function rootHead() {
  return {
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { name: 'format-detection', content: 'telephone=yes' },
      { title: site.notFound.title },
    ],
    links: [{ rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' }],
  };
}

/** Title, description, keywords, canonical, robots and social tags of one page, all from its document. */
export function pageHead(page: Page, path: string) {
  const url = absolute(page.canonical ?? path);
  const socialTitle = page.social?.title ?? page.title;
  const socialDescription = page.social?.description ?? page.description;
  const meta = [
    { title: page.title },
    { name: 'description', content: page.description },
    { name: 'keywords', content: page.keywords.join(', ') },
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.brand.name },
    { property: 'og:title', content: socialTitle },
    { property: 'og:description', content: socialDescription },
    { property: 'og:url', content: url },
    ...(page.social?.image ? [{ property: 'og:image', content: absolute(page.social.image) }] : []),
    { name: 'twitter:card', content: page.social?.image ? 'summary_large_image' : 'summary' },
    { name: 'twitter:title', content: socialTitle },
    { name: 'twitter:description', content: socialDescription },
    ...(page.robots ? [{ name: 'robots', content: page.robots }] : []),
  ];
  return { meta, links: [{ rel: 'canonical', href: url }] };
}
