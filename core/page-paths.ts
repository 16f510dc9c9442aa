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
