// Files the build writes beside the pages, derived from the content: sitemap.xml and robots.txt.
import { SitemapStream, streamToPromise } from 'sitemap';
import type { Page, Site } from '../../generated/content-types.ts';

export type SitePage = { path: string; page: Page };

/** Every page's canonical URL with the lastmod of the site and the change frequency and priority of the page. */
export async function sitemapXml(site: Site, pages: SitePage[]): Promise<string> {
  const stream = new SitemapStream({
    hostname: site.url,
    lastmodDateOnly: true,
    xmlns: { news: false, xhtml: false, image: false, video: false },
  });
  const canonical = new Set<string>();
  for (const { path, page } of [...pages].sort(
    (a, b) => b.page.sitemap.priority - a.page.sitemap.priority || a.path.localeCompare(b.path),
  )) {
    const url = page.canonical ?? path;
    if (canonical.has(url)) continue;
    canonical.add(url);
    stream.write({
      url,
      lastmod: site.sitemap.lastmod,
      changefreq: page.sitemap.changefreq,
      priority: page.sitemap.priority,
    });
  }
  stream.end();
  return (await streamToPromise(stream)).toString();
}

export const robotsTxt = (site: Site): string =>
  `User-agent: *\nAllow: /\n\nSitemap: ${site.url}/sitemap.xml\n`;
