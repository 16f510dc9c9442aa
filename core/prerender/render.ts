// Renders a share of a site's pages with a built render bundle and writes each page's HTML (with its brotli and gzip
// copies) and its data file. Run in the prerender's own process, or in one process per core (worker.ts).
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { ServerManifest } from '@tanstack/router-core';
import type { PageData, PageReviews } from '../../renderer/medical-review.ts';
import type { SiteData } from '../../renderer/site-data.ts';
import { inlineScriptHashes, type CspHashes } from '../csp.ts';
import { htmlFile, pageDataFile } from '../page-paths.ts';
import { compressedCopies } from '../precompress.ts';
import { loadPages, loadSiteData } from './content.ts';
import { routerManifest, type ViteManifestChunk } from './manifest.ts';
import { deferStylesheet } from '../first-screen.ts';
import { FIRST_SCREEN_END } from '../../renderer/head.ts';

/** What the render bundle (renderer/entry-server.tsx) exports. */
export interface RenderBundle {
  render: (
    url: string,
    manifest: ServerManifest,
    content: {
      loadPage: (path: string) => Promise<PageData | undefined>;
      siteData: SiteData;
      siteDataUrl: string;
    },
  ) => Promise<{ status: number; html: string }>;
}

/** One process's part of a prerender: every `count`-th target from `first`. */
export interface RenderJob {
  codeDir: string;
  contentRoot: string;
  outDir: string;
  siteUrl: string;
  /** The URL of the site data file the prerender wrote. */
  siteDataUrl: string;
  /** The clinical reviews that hold for this content, by page path (renderer/medical-review.ts). */
  reviews: PageReviews;
  first: number;
  count: number;
}

/** What rendering some of the pages found: each page's inline-script hashes, and what went wrong. */
export interface RenderResult {
  cspHashes: CspHashes;
  failures: string[];
}

/**
 * The page with the render's clock taken out of the router's dehydrated matches (`{i:"<route>",u:<Date.now()>,...}`,
 * when each match was loaded): the same content and code then render the same bytes, so two releases share their
 * unchanged pages, and a page that differs between releases differs in what it says. A match loaded at time 0 is as
 * fresh as any to the client: page data never goes stale (renderer/router.tsx, staleTime Infinity).
 */
export const withoutRenderTime = (html: string): string =>
  html.replace(/(\{i:"(?:[^"\\]|\\.)*",u:)\d+(?=,s:")/g, (_, before: string) => `${before}0`);

/** The not-found page's target: rendered at a path no page has, written to 404.html. */
export const NOT_FOUND_TARGET = '/404';

/** Every path a prerender renders, in order: the pages, then the not-found page. */
export const renderTargets = (pagePaths: readonly string[]) => [
  ...pagePaths.map((path) => ({ path, status: 200 })),
  { path: NOT_FOUND_TARGET, status: 404 },
];

/** Writes `file` with its brotli and gzip copies beside it. */
export function writeWithCopies(file: string, text: string | Buffer): void {
  const body = Buffer.from(text);
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, body);
  // Compressed here, while the file is in memory, by as many processes as render.
  const { br, gzip } = compressedCopies(file, body);
  writeFileSync(`${file}.br`, br);
  writeFileSync(`${file}.gz`, gzip);
}

export async function renderShare(job: RenderJob): Promise<RenderResult> {
  const clientDir = join(job.codeDir, 'client');
  const viteManifest = JSON.parse(readFileSync(join(clientDir, '.vite/manifest.json'), 'utf8')) as Record<
    string,
    ViteManifestChunk
  >;
  const manifest = routerManifest(viteManifest, (file) => readFileSync(join(clientDir, file), 'utf8'), [
    job.siteDataUrl,
  ]);
  const bundle = (await import(
    pathToFileURL(join(job.codeDir, 'server', 'entry-server.js')).href
  )) as RenderBundle;
  const siteData = loadSiteData(job.contentRoot, job.siteUrl);
  const pages = new Map<string, PageData>(
    [...loadPages(job.contentRoot)].map(([path, page]) => {
      const medicalReview = job.reviews[path];
      return [path, medicalReview ? { ...page, medicalReview } : page];
    }),
  );
  const content = {
    loadPage: (path: string) => Promise.resolve(pages.get(path)),
    siteData,
    siteDataUrl: job.siteDataUrl,
  };
  const targets = renderTargets([...pages.keys()]);
  const result: RenderResult = { cspHashes: {}, failures: [] };
  for (let index = job.first; index < targets.length; index += job.count) {
    const { path, status } = targets[index]!;
    const rendered = await bundle.render(path, manifest, content);
    // The head keeps the first screen's CSS; the page links the rest after its first block (core/first-screen.ts).
    const html = withoutRenderTime(deferStylesheet(rendered.html, manifest, FIRST_SCREEN_END));
    if (rendered.status !== status)
      result.failures.push(`${path}: rendered with status ${rendered.status}, expected ${status}`);
    if (status === 200) {
      const canonical = /<link rel="canonical" href="([^"]*)"/.exec(html)?.[1] ?? '';
      if (canonical !== job.siteUrl && !canonical.startsWith(`${job.siteUrl}/`))
        result.failures.push(`${path}: canonical ${canonical || '(none)'} is not on ${job.siteUrl}`);
      // The page's document, for client-side navigation to it (the first load reads it from the HTML instead).
      writeWithCopies(join(job.outDir, pageDataFile(path)), Buffer.from(JSON.stringify(pages.get(path))));
    }
    const relative = path === NOT_FOUND_TARGET ? '404.html' : htmlFile(path);
    result.cspHashes[relative] = inlineScriptHashes(html);
    writeWithCopies(join(job.outDir, relative), Buffer.from(html));
  }
  return result;
}
