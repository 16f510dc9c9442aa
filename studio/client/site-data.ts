// The studio is a local tool over the checkout: it bundles the checkout's site documents and installs them as the
// renderer's site data (renderer/site-data.ts), which the site's own bundles never hold. Imported first by each entry.
import type { FormDefinition, ProgramCatalogue, RedirectTable, Site } from '../../generated/content-types.ts';
import { siteUrlFrom } from '../../core/site-url.ts';
import { installSiteData } from '../../renderer/site-data.ts';
import site from '../../site/site.json';
import programs from '../../site/programs.json';
import redirects from '../../site/redirects.json';

const forms = import.meta.glob<FormDefinition>('../../site/forms/*.json', { eager: true, import: 'default' });

installSiteData({
  site: site as Site,
  // studio/vite.config.ts exposes SITE_URL, as the build's prerender reads it.
  siteUrl: siteUrlFrom(import.meta.env.SITE_URL as string | undefined, site.url),
  forms: Object.fromEntries(
    Object.entries(forms).map(([path, definition]) => [path.replace(/^.*\/(.+)\.json$/, '$1'), definition]),
  ),
  programs: programs as ProgramCatalogue,
  redirects: redirects as RedirectTable,
});
