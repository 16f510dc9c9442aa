// The studio is a local tool over the checkout: it installs the checkout's site documents as the renderer's site data
// (renderer/site-data.ts), read from the studio server as the page opens (studio/server/site-data.ts), never bundled:
// a malformed site document must not stop the editor from building. Imported first by each entry.
// Online (/staff/edit/), the same data comes from the content API: the live site's, or as the change set makes it.
import { installSiteData, type SiteData } from '../../renderer/site-data.ts';
import { changeId, online } from './backend/backend.ts';

const response = await fetch(
  online
    ? `/staff/api/content/site-data${changeId === null ? '' : `?change=${encodeURIComponent(changeId)}`}`
    : '/studio-api/site-data',
);
installSiteData((await response.json()) as SiteData);
