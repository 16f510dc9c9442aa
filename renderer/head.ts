import {
  convertCssVariables,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
} from '@mantine/core';
import type { Page } from '../generated/content-types.ts';
import { site } from './site-context.tsx';
import { PALETTE, theme } from './theme.ts';
import { jsonLd, structuredData } from './structured-data.ts';

// Mantine's theme variables, in <head> where styles belong (the provider would put them in <body>), without those of
// the palette colours the site never uses: they would be a third of every page's CSS.
const unusedColour = new RegExp(
  `^--mantine-color-(${Object.keys(DEFAULT_THEME.colors)
    .filter((colour) => !PALETTE.includes(colour))
    .join('|')})-`,
);
const withoutUnusedColours = (variables: Record<string, string>) =>
  Object.fromEntries(Object.entries(variables).filter(([name]) => !unusedColour.test(name)));
const resolved = defaultCssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, theme));
const themeVariables = convertCssVariables(
  {
    variables: withoutUnusedColours(resolved.variables),
    light: withoutUnusedColours(resolved.light),
    dark: withoutUnusedColours(resolved.dark),
  },
  ':root',
);

declare global {
  interface ImportMetaEnv {
    /** The deployed origin, such as https://www.example.com, read at build time (see siteUrl below). */
    readonly SITE_URL?: string;
  }
}

/** The social preview every page shares unless its document names its own: a 1200 × 630 brand card in public/. */
export const DEFAULT_SOCIAL_IMAGE = { path: '/og-image.png', width: 1200, height: 630, type: 'image/png' };

/**
 * The site's origin for absolute URLs: `value` (the `SITE_URL` environment variable at build time) when set, else the
 * site document's `url`; without a trailing slash. Throws on anything but an absolute http(s) URL with no path, so a
 * typo fails the build instead of publishing broken canonical links.
 */
export function siteUrlFrom(value: string | undefined, fallback: string): string {
  const raw = value?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SITE_URL must be an absolute URL such as https://www.example.com, not "${raw}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash)
    throw new Error(`SITE_URL must be an http(s) origin with no path, query or fragment, not "${raw}"`);
  return url.origin;
}

/**
 * The origin of every absolute URL the pages carry (canonical, og:url, og:image; structured data should use it too).
 * Vite inlines import.meta.env.SITE_URL into both the client and the server-render bundle at build time (vite.config.ts
 * exposes the variable), so the prerendered tags and those the client writes on navigation agree. Plain Node (tsx)
 * has no import.meta.env: the site document's url then.
 */
export const siteUrl = siteUrlFrom(import.meta.env?.SITE_URL, site.url);

const absolute = (path: string) => (path === '/' ? siteUrl : `${siteUrl}${path}`);

/** The id of the empty element after a page's first block: rendering waits until the page is parsed up to it. */
export const FIRST_SCREEN_END = 'first-screen-end';

/** Tags every document has; the not-found title stands until a page route sets its own. */
export function rootHead() {
  return {
    meta: [
      { charSet: 'utf-8' },
      { name: 'viewport', content: 'width=device-width, initial-scale=1' },
      { name: 'format-detection', content: 'telephone=yes' },
      { title: site.notFound.title },
    ],
    links: [
      { rel: 'icon', href: '/favicon.svg', type: 'image/svg+xml' },
      // The browser paints nothing until the header and the first block are parsed whole (renderer/shell/PageView.tsx
      // marks where the first block ends). A first paint of half a header or hero moved what it had shown once the
      // rest arrived: the name wrapped when the menu button came, trust points moved to the next row. Chromium
      // honours this; other browsers ignore it and paint as before.
      { rel: 'expect', href: `#${FIRST_SCREEN_END}`, blocking: 'render' },
    ],
    styles: [{ children: themeVariables }],
  };
}

/** Title, description, keywords, canonical, robots and social tags of one page, all from its document. */
export function pageHead(page: Page, path: string) {
  const url = absolute(page.canonical ?? path);
  const socialTitle = page.social?.title ?? page.title;
  const socialDescription = page.social?.description ?? page.description;
  // A page's own image has no known size; the default card's size lets previews lay out before it loads.
  const image = page.social?.image
    ? [{ property: 'og:image', content: absolute(page.social.image) }]
    : [
        { property: 'og:image', content: absolute(DEFAULT_SOCIAL_IMAGE.path) },
        { property: 'og:image:type', content: DEFAULT_SOCIAL_IMAGE.type },
        { property: 'og:image:width', content: String(DEFAULT_SOCIAL_IMAGE.width) },
        { property: 'og:image:height', content: String(DEFAULT_SOCIAL_IMAGE.height) },
      ];
  const imageUrl = image[0]?.content ?? '';
  // Read aloud by screen readers on the networks that show the card; the card shows the brand's name.
  const imageAlt = site.brand.name;
  const meta = [
    { title: page.title },
    { name: 'description', content: page.description },
    { name: 'keywords', content: page.keywords.join(', ') },
    ...(page.robots ? [{ name: 'robots', content: page.robots }] : []),
    { property: 'og:type', content: 'website' },
    { property: 'og:site_name', content: site.brand.name },
    { property: 'og:locale', content: 'en_US' },
    { property: 'og:title', content: socialTitle },
    { property: 'og:description', content: socialDescription },
    { property: 'og:url', content: url },
    ...image,
    { property: 'og:image:alt', content: imageAlt },
    { name: 'twitter:card', content: 'summary_large_image' },
    { name: 'twitter:title', content: socialTitle },
    { name: 'twitter:description', content: socialDescription },
    { name: 'twitter:image', content: imageUrl },
    { name: 'twitter:image:alt', content: imageAlt },
  ];
  return {
    meta,
    links: [{ rel: 'canonical', href: url }],
    scripts: [{ type: 'application/ld+json', children: jsonLd(structuredData(page, path, site, siteUrl)) }],
  };
}
