import {
  convertCssVariables,
  DEFAULT_THEME,
  defaultCssVariablesResolver,
  mergeMantineTheme,
} from '@mantine/core';
import type { Site } from '../generated/content-types.ts';
import type { PageData } from './medical-review.ts';
import { siteData } from './site-data.ts';
import { palette, siteTheme } from './theme.ts';
import { jsonLd, structuredData } from './structured-data.ts';
import { withPromises } from './text/form-promise.ts';

export { siteUrlFrom } from '../core/site-url.ts';

// Mantine's theme variables, in <head> where styles belong (the provider would put them in <body>), without those of
// the palette colours the site never uses: they would be a third of every page's CSS. Made once per site document.
const themeVariablesOf = new WeakMap<Site, string>();
function themeVariables(site: Site): string {
  const known = themeVariablesOf.get(site);
  if (known !== undefined) return known;
  const used = palette(site);
  const unusedColour = new RegExp(
    `^--mantine-color-(${Object.keys(DEFAULT_THEME.colors)
      .filter((colour) => !used.includes(colour))
      .join('|')})-`,
  );
  const withoutUnusedColours = (variables: Record<string, string>) =>
    Object.fromEntries(Object.entries(variables).filter(([name]) => !unusedColour.test(name)));
  const resolved = defaultCssVariablesResolver(mergeMantineTheme(DEFAULT_THEME, siteTheme(site)));
  const css = convertCssVariables(
    {
      variables: withoutUnusedColours(resolved.variables),
      light: withoutUnusedColours(resolved.light),
      dark: withoutUnusedColours(resolved.dark),
    },
    ':root',
  );
  themeVariablesOf.set(site, css);
  return css;
}

/** The social preview every page shares unless its document names its own: a 1200 × 630 brand card in public/. */
export const DEFAULT_SOCIAL_IMAGE = { path: '/og-image.png', width: 1200, height: 630, type: 'image/png' };

/**
 * The origin of every absolute URL the pages carry (canonical, og:url, og:image, structured data): part of the site
 * data (renderer/site-data.ts), resolved by the prerender from SITE_URL or site.json, so the prerendered tags and those
 * the client writes on navigation agree.
 */
export const siteUrl = (): string => siteData().siteUrl;

const absolute = (path: string) => (path === '/' ? siteUrl() : `${siteUrl()}${path}`);

/** The id of the empty element after a page's first block: rendering waits until the page is parsed up to it. */
export const FIRST_SCREEN_END = 'first-screen-end';

/** Tags every document has; the not-found title stands until a page route sets its own. */
export function rootHead() {
  const { site } = siteData();
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
    styles: [{ children: themeVariables(site) }],
  };
}

/** Title, description, keywords, canonical, robots and social tags of one page, all from its document. */
export function pageHead(page: PageData, path: string) {
  const { site } = siteData();
  const url = absolute(page.canonical ?? path);
  // A promise stated in the head is made into words from its form's promiseMinutes, as on the page.
  const title = withPromises(page.title);
  const description = withPromises(page.description);
  const socialTitle = withPromises(page.social?.title ?? page.title);
  const socialDescription = withPromises(page.social?.description ?? page.description);
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
    { title },
    { name: 'description', content: description },
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
  return { meta, links: [{ rel: 'canonical', href: url }] };
}

/**
 * The page's structured data, at the end of <body> (the page route's `scripts`, rendered by <Scripts />): crawlers read
 * JSON-LD anywhere in the document, and in <head> its 2-2.5 KB (compressed) came before the first word of content.
 */
export function pageScripts(page: PageData, path: string) {
  const { site } = siteData();
  return [{ type: 'application/ld+json', children: jsonLd(structuredData(page, path, site, siteUrl())) }];
}
