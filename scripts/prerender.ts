// Renders every page (and the not-found page) to a complete HTML file, using the server build and the client manifest,
// and records the hashes of each page's inline scripts for its Content-Security-Policy.
import { fork } from 'node:child_process';
import { readFileSync, writeFileSync, mkdirSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import type { ServerManifest } from '@tanstack/router-core';
import { ROOT, contentPaths } from '../content/paths.ts';
import { readJson } from '../content/schemas.ts';
import { CSP_HASHES_FILE, inlineScriptHashes, type CspHashes } from '../core/csp.ts';
import { hydrationLoader } from '../renderer/shell/hydration-loader.ts';
import { compressedCopies } from '../core/precompress.ts';
import { robotsTxt, sitemapXml } from './lib/static-files.ts';
import { nginxSiteConf } from './lib/nginx-site.ts';
import { netlifyRedirects, redirectRules } from '../core/redirects.ts';
import type { Page, RedirectTable, Site } from '../generated/content-types.ts';
import { htmlFile } from '../core/page-paths.ts';
import { FIRST_SCREEN_END, siteUrlFrom } from '../renderer/head.ts';
import { deferStylesheet } from '../core/first-screen.ts';

type ViteManifestChunk = {
  file: string;
  css?: string[];
  imports?: string[];
  dynamicImports?: string[];
  isEntry?: boolean;
};
type ServerEntry = {
  render: (url: string, manifest: ServerManifest) => Promise<{ status: number; html: string }>;
  pages: { path: string; load: () => Promise<Page> }[];
};

const buildDir = join(ROOT, '.build');
const content = contentPaths(ROOT);
const clientDir = join(buildDir, 'client');

/**
 * What the client entry imports as it starts, each evaluated in a task of its own (renderer/entry-client.tsx), as
 * keys of Vite's manifest: prefetched with the entry, so the first touch does not wait for the network.
 */
export const STARTUP_IMPORTS = ['node_modules/react-dom/client.js'] as const;

/**
 * The router manifest of every page: its CSS inlined (the page needs no second request before it can show), and the
 * loader that runs the client entry at the visitor's first interaction (renderer/shell/hydration-loader.ts) in place of
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
  for (const source of STARTUP_IMPORTS) {
    // The manifest names a module by its path from the project; in a copy whose node_modules is a link (a benchmark's
    // copy of the project), Vite follows the link, so the path only ends the same way.
    const key = entry.dynamicImports?.find((name) => name === source || name.endsWith(`/${source}`));
    if (!key) throw new Error(`The client entry no longer imports ${source}`);
    visit(key);
  }
  // Those chunks import the entry's own (shared) code; the loader names the entry first, once.
  imports.delete(entry.file);
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
const site = readJson(content.siteFile) as Site;
const siteUrl = siteUrlFrom(process.env.SITE_URL, site.url);

/** What rendering some of the pages found: each page's inline-script hashes, and what went wrong. */
interface RenderResult {
  cspHashes: CspHashes;
  failures: string[];
}

/** Renders every `count`-th target from `first` and writes its HTML file. */
async function renderShare(first: number, count: number): Promise<RenderResult> {
  const result: RenderResult = { cspHashes: {}, failures: [] };
  for (let index = first; index < targets.length; index += count) {
    const { path, status } = targets[index]!;
    const rendered = await server.render(path, manifest);
    // The head keeps the first screen's CSS; the page links the rest after its first block (core/first-screen.ts).
    rendered.html = deferStylesheet(rendered.html, manifest, FIRST_SCREEN_END);
    if (rendered.status !== status)
      result.failures.push(`${path}: rendered with status ${rendered.status}, expected ${status}`);
    if (status === 200) {
      const canonical = /<link rel="canonical" href="([^"]*)"/.exec(rendered.html)?.[1] ?? '';
      if (canonical !== siteUrl && !canonical.startsWith(`${siteUrl}/`))
        result.failures.push(
          `${path}: canonical ${canonical || '(none)'} is not on ${siteUrl}: the bundles were built without SITE_URL ` +
            `(vite.config.ts must expose it to import.meta.env: envPrefix: ['VITE_', 'SITE_URL'])`,
        );
    }
    const relative = path === '/404' ? '404.html' : htmlFile(path);
    result.cspHashes[relative] = inlineScriptHashes(rendered.html);
    const file = join(clientDir, relative);
    mkdirSync(dirname(file), { recursive: true });
    const html = Buffer.from(rendered.html);
    writeFileSync(file, html);
    // Compressed here, while the page is in memory, by as many processes as render.
    const { br, gzip } = compressedCopies(file, html);
    writeFileSync(`${file}.br`, br);
    writeFileSync(`${file}.gz`, gzip);
  }
  return result;
}

// A large site renders in one process per core: each renders a share of the pages and reports back over IPC.
// Below PAGES_PER_PROCESS pages a second process costs more to start than it saves.
const PAGES_PER_PROCESS = 100;
const SHARE = process.env.PRERENDER_SHARE; // "first/count", set for the processes started below

if (SHARE) {
  const [first, count] = SHARE.split('/').map(Number);
  const result = await renderShare(first!, count!);
  // Exit only once the result has reached the parent.
  await new Promise<void>((resolve, reject) =>
    process.send?.(result, undefined, {}, (error) => (error ? reject(error) : resolve())),
  );
  process.exit(0);
}

const processes = Math.max(
  1,
  Math.min(availableParallelism(), Math.floor(targets.length / PAGES_PER_PROCESS)),
);
const shares: RenderResult[] =
  processes === 1
    ? [await renderShare(0, 1)]
    : await Promise.all(
        Array.from(
          { length: processes },
          (_, first) =>
            new Promise<RenderResult>((resolve, reject) => {
              const child = fork(fileURLToPath(import.meta.url), [], {
                execArgv: ['--import', 'tsx'],
                env: { ...process.env, PRERENDER_SHARE: `${first}/${processes}` },
              });
              let answer: RenderResult | undefined;
              child.on('message', (message) => (answer = message as RenderResult));
              child.on('error', reject);
              child.on('exit', (code) =>
                answer && code === 0
                  ? resolve(answer)
                  : reject(
                      new Error(`prerender process ${first + 1} of ${processes} failed (exit code ${code})`),
                    ),
              );
            }),
        ),
      );
const failures = shares.flatMap((share) => share.failures);
const cspHashes: CspHashes = Object.assign({}, ...shares.map((share) => share.cspHashes));
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
const redirects = redirectRules(readJson(content.redirectsFile) as RedirectTable);
writeFileSync(join(clientDir, '_redirects'), netlifyRedirects(redirects));
mkdirSync(join(buildDir, 'nginx'), { recursive: true });
writeFileSync(join(buildDir, 'nginx', 'site.conf'), nginxSiteConf(clientDir, cspHashes, redirects));
console.log(
  `prerendered ${targets.length} pages for ${siteUrl}; wrote ${CSP_HASHES_FILE}, sitemap.xml, robots.txt, _redirects ` +
    'and nginx/site.conf',
);
