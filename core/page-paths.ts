// The file under pages/ is the URL: pages/index.json is /, pages/services/medical-detox.json is /services/medical-detox.

/** URL path of a page file, given its path relative to the project root (with or without a leading slash). */
export function pagePath(file: string): string {
  const match = /^\/?pages\/(.*)\.json$/.exec(file);
  if (!match?.[1]) throw new Error(`Not a page document: ${file}`);
  const path = `/${match[1]}`.replace(/(^|\/)index$/, '');
  return path === '' ? '/' : path;
}

/** The page file that serves a URL path: the inverse of pagePath. */
export function pageFile(path: string): string {
  return path === '/' ? 'pages/index.json' : `pages${path}.json`;
}

/** The prerendered file of a URL path inside dist/client: / is index.html, /a/b is a/b.html. */
export function htmlFile(path: string): string {
  return path === '/' ? 'index.html' : `${path.slice(1)}.html`;
}

/** Where the prerender writes each page's data file (its document), fetched on client-side navigation. */
export const PAGE_DATA_DIR = '_data/pages';

/** The data file of a URL path inside the built site: / is _data/pages/index.json, /a/b is _data/pages/a/b.json. */
export function pageDataFile(path: string): string {
  return `${PAGE_DATA_DIR}/${htmlFile(path).replace(/\.html$/, '.json')}`;
}

/** The site data file, named by its content's hash: cached for good like the hashed assets. */
export const siteDataFile = (hash: string): string => `_data/site.${hash}.json`;

/** Matches the site data file's name (relative to the built site, `/`-separated). */
export const SITE_DATA_FILE = /^_data\/site\.[A-Za-z0-9_-]+\.json$/;
