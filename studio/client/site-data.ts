// The studio is a local tool over the checkout: it installs the checkout's site documents as the renderer's site data
// (renderer/site-data.ts), read from the studio server as the page opens (studio/server/site-data.ts), never bundled:
// a malformed site document must not stop the editor from building. Imported first by each entry.
import { installSiteData, type SiteData } from '../../renderer/site-data.ts';

const response = await fetch('/studio-api/site-data');
installSiteData((await response.json()) as SiteData);
