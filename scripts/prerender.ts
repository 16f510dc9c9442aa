// Renders every page (and the not-found page) to a complete HTML file, using the server build and the client manifest,
// and records the hashes of each page's inline scripts for its Content-Security-Policy.
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerManifest } from '@tanstack/router-core';
import { REDIRECTS_FILE, ROOT, SITE_FILE, readJson } from './lib/content-schemas.ts';
import { CSP_HASHES_FILE, inlineScriptHashes, type CspHashes } from './lib/csp.ts';
import { hydrationLoader } from './lib/hydration-loader.ts';
import { redirectFiles, robotsTxt, sitemapXml } from './lib/static-files.ts';
import type { Page, RedirectTable, Site } from '../generated/content-types.ts';
import { htmlFile } from '../renderer/content/page-paths.ts';
import { siteUrlFrom } from '../renderer/head.ts';

type ViteManifestChunk = { file: string; css?: string[]; imports?: string[]; isEntry?: boolean };
type ServerEntry = {
  render: (url: string, manifest: ServerManifest) => Promise<{ status: number; html: string }>;
  pages: { path: string; load: () => Promise<Page> }[];
};

const buildDir = join(ROOT, '.build');
const clientDir = join(buildDir, 'client');

/**
 * The router manifest of every page: its CSS inlined (the page needs no second request before it can show), and the
 * loader that runs the client entry at the visitor's first interaction (scripts/lib/hydration-loader.ts) in place of
 * a script tag.
 */
export function routerManifest(
  viteManifest: Record<string, ViteManifestChunk>,
  readAsset: (file: string) => string,
): ServerManifest {
  const entry = Object.values(viteManifest).find((chunk) => chunk.isEntry);
  if (!entry) throw new Error('The client build has no entry chunk');
  const imports = new Set<string>();
  const visit = (key: string) => {
    const chunk = viteManifest[key];
    if (!chunk || imports.has(chunk.file)) return;
    imports.add(chunk.file);
    chunk.imports?.forEach(visit);
  };
  entry.imports?.forEach(visit);
  const url = (file: string) => `/${file}`;
  const css = entry.css ?? [];
  return {
    inlineCss: { styles: Object.fromEntries(css.map((file) => [url(file), readAsset(file)])) },
    routes: {
      __root__: {
        css: css.map(url),
        scripts: [{ children: hydrationLoader(url(entry.file), [...imports].map(url)) }],
      },
    },
  };
}

const viteManifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8'));
const manifest = routerManifest(viteManifest, (file) => readFileSync(join(clientDir, file), 'utf8'));
const server = (await import(pathToFileURL(join(buildDir, 'server/entry-server.js')).href)) as ServerEntry;

const targets = [
  ...server.pages.map((page) => ({ path: page.path, status: 200 })),
  { path: '/404', status: 404 },
];
const site = readJson(SITE_FILE) as Site;
const siteUrl = siteUrlFrom(process.env.SITE_URL, site.url);

const failures: string[] = [];
const cspHashes: CspHashes = {};
for (const { path, status } of targets) {
  const result = await server.render(path, manifest);
  if (result.status !== status)
    failures.push(`${path}: rendered with status ${result.status}, expected ${status}`);
  if (status === 200) {
    const canonical = /<link rel="canonical" href="([^"]*)"/.exec(result.html)?.[1] ?? '';
    if (canonical !== siteUrl && !canonical.startsWith(`${siteUrl}/`))
      failures.push(
        `${path}: canonical ${canonical || '(none)'} is not on ${siteUrl}: the bundles were built without SITE_URL ` +
          `(vite.config.ts must expose it to import.meta.env: envPrefix: ['VITE_', 'SITE_URL'])`,
      );
  }
  const relative = path === '/404' ? '404.html' : htmlFile(path);
  cspHashes[relative] = inlineScriptHashes(result.html);
  const file = join(clientDir, relative);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, result.html);
}
if (failures.length) {
  console.error(failures.join('\n'));
  process.exit(1);
}
writeFileSync(join(clientDir, CSP_HASHES_FILE), `${JSON.stringify(cspHashes, null, 2)}\n`);

const pages = await Promise.all(server.pages.map(async ({ path, load }) => ({ path, page: await load() })));
// The sitemap and robots.txt name the same origin as the pages' canonical links.
const deployedSite: Site = { ...site, url: siteUrl };
writeFileSync(join(clientDir, 'sitemap.xml'), await sitemapXml(deployedSite, pages));
writeFileSync(join(clientDir, 'robots.txt'), robotsTxt(deployedSite));
const redirects = redirectFiles(readJson(REDIRECTS_FILE) as RedirectTable);
writeFileSync(join(clientDir, '_redirects'), redirects.netlify);
mkdirSync(join(buildDir, 'nginx'), { recursive: true });
writeFileSync(join(buildDir, 'nginx', 'redirects.conf'), redirects.nginx);
console.log(
  `prerendered ${targets.length} pages for ${siteUrl}; wrote ${CSP_HASHES_FILE}, sitemap.xml, robots.txt, _redirects ` +
    'and nginx/redirects.conf',
);
