import { describe, expect, it } from 'vitest';
import { pagePathOf } from './router.tsx';
import { render } from './entry-server.tsx';
import { ROOT } from '../content/paths.ts';
import { loadPages, loadSiteData } from '../core/prerender/content.ts';
import type { Page } from '../generated/content-types.ts';

// The router's pages are content: it asks its page source, so any set of documents is a site.
const pages = loadPages(ROOT);
const siteData = loadSiteData(ROOT);
const renderWith = (path: string, loadPage: (path: string) => Promise<Page | undefined>) =>
  render(path, { routes: {} }, { loadPage, siteData, siteDataUrl: '/_data/site.test.json' });

describe('routes from content', () => {
  it('renders the page its page source gives for the path, and asks only for that path', async () => {
    const asked: string[] = [];
    const detox = pages.get('/services/medical-detox')!;
    const { status, html } = await renderWith('/services/medical-detox', (path) => {
      asked.push(path);
      return Promise.resolve({ ...detox, title: 'A title only this test gives' });
    });
    expect(asked).toEqual(['/services/medical-detox']);
    expect(status).toBe(200);
    expect(html).toContain('<title>A title only this test gives</title>');
    // The client is told where the site data is, in the router's state.
    expect(html).toContain('/_data/site.test.json');
  });

  it('is the not-found screen, with status 404, for a path its page source does not know', async () => {
    const { status, html } = await renderWith('/no-such-page', () => Promise.resolve(undefined));
    expect(status).toBe(404);
    expect(html).toContain(siteData.site.notFound.title);
  });

  it('answers an old address of the redirect table (site data) with a 301 to its target', async () => {
    const { status } = await renderWith('/rehab', (path) => Promise.resolve(pages.get(path)));
    expect(status).toBe(301);
  });

  it('reads a location as a page path: decoded, without trailing slashes', () => {
    expect(pagePathOf('/')).toBe('/');
    expect(pagePathOf('/services/medical-detox/')).toBe('/services/medical-detox');
    expect(pagePathOf('/caf%C3%A9')).toBe('/café');
  });
});
