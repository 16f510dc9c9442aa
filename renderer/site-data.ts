// The site-wide documents every page is rendered with (site.json, the form definitions, the program catalogue, the
// redirect table), as data given to the renderer at run time, never bundled with its code: the same code renders any
// release's content. The prerender installs them from its content folder before rendering (renderer/entry-server.tsx);
// the browser fetches them as one content-hashed file while the router hydrates (renderer/entry-client.tsx).
import type { FormDefinition, ProgramCatalogue, RedirectTable, Site } from '../generated/content-types.ts';

export interface SiteData {
  site: Site;
  /** The deployed origin of every absolute URL (canonical, og:url, structured data): SITE_URL or site.json's url. */
  siteUrl: string;
  /** Form definitions by id (the file name under site/forms/ without .json). */
  forms: Record<string, FormDefinition>;
  programs: ProgramCatalogue;
  redirects: RedirectTable;
}

let current: SiteData | undefined;

/** Makes `data` the site every later render and every component reads. */
export function installSiteData(data: SiteData): void {
  current = data;
}

/** The installed site data; throws if none was installed (a render before its content was given). */
export function siteData(): SiteData {
  if (!current) throw new Error('No site data installed: call installSiteData before rendering');
  return current;
}
