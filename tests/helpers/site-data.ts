// Every test renders with the checkout's site data installed, as the prerender installs a release's
// (renderer/site-data.ts): the renderer's code holds no content of its own.
import { ROOT } from '../../content/paths.ts';
import { loadSiteData } from '../../core/prerender/content.ts';
import { installSiteData } from '../../renderer/site-data.ts';

installSiteData(loadSiteData(ROOT));
