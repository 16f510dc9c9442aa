// Link gate: linkinator crawls the running site from /, following every internal link and asset (pages, scripts,
// styles, icons, URLs in CSS and in JSON-LD, #fragments). Zero broken. External addresses are not fetched.
import { LinkChecker, LinkState, type LinkResult } from 'linkinator';
import { describe, expect, it } from 'vitest';
import { startSite } from '../helpers/site-under-test.ts';
import { siteUrlFrom } from '../../renderer/head.ts';
import { ROOT } from '../../content/paths.ts';
import { pagePaths } from '../../core/prerender/content.ts';
import site from '../../site/site.json' with { type: 'json' };

const pages = pagePaths(ROOT).map((path) => ({ path }));

// The origin the build wrote into absolute links (`npm test` builds with the same environment).
const deployedOrigin = siteUrlFrom(process.env.SITE_URL, site.url);
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

const describeLink = (link: LinkResult): string =>
  `${link.status ?? '(no answer)'} ${link.url}${link.parent ? ` (linked from ${link.parent})` : ''}`;

describe('links', () => {
  it('every internal link and asset of every page answers, and every #fragment exists', async () => {
    const running = await startSite();
    try {
      const origin = running.url;
      const { links } = await new LinkChecker().check({
        path: `${origin}/`,
        recurse: true,
        // Canonical, og:url, og:image and JSON-LD links name the deployed origin: check them against this server, so
        // a canonical URL or social image that does not exist is a broken link too.
        urlRewriteExpressions: [
          { pattern: new RegExp(`^${escapeRegExp(deployedOrigin)}(?=/|$)`), replacement: origin },
        ],
        linksToSkip: async (url) => !url.startsWith(`${origin}/`) && url !== origin,
        checkCss: true,
        checkFragments: true,
        // Page URLs have no trailing slash and no extension: resolve relative links (#main) against the page itself, as
        // a browser does, instead of against a guessed directory /page/.
        cleanUrls: true,
        // The navigation names some old addresses on purpose (the spec's menu, such as /services/executive-detox): a
        // redirect is followed and its target must answer.
        redirects: 'allow',
        concurrency: 8,
        timeout: 10_000,
      });
      const broken = links.filter((link) => link.state === LinkState.BROKEN).map(describeLink);
      expect(broken).toEqual([]);
      // The crawl really reached every page, not only the home page.
      const checked = new Set(links.filter((link) => link.state === LinkState.OK).map((link) => link.url));
      for (const { path } of pages) expect(checked, path).toContain(`${origin}${path === '/' ? '/' : path}`);
    } finally {
      await running.stop();
    }
  }, 120_000);
});
