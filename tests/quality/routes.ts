// The routes every quality gate covers: every page of the site (one per document under pages/, as the router lists
// them) and the not-found page, reached through an address no page has.
import { ROOT } from '../../content/paths.ts';
import { pagePaths } from '../../core/prerender/content.ts';

const pages = pagePaths(ROOT).map((path) => ({ path }));

export const NOT_FOUND_PATH = '/no-such-page-quality-check';

export const ROUTES: readonly string[] = [...pages.map((page) => page.path), NOT_FOUND_PATH];
