// The content a prerender renders, read from a content root (contentPaths(root) in content/paths.ts): the site data
// every page shares and the page documents by URL path. Plain Node and `dependencies` only: it runs in production.
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { basename, join, relative, sep } from 'node:path';
import { contentPaths } from '../../content/paths.ts';
import type {
  FormDefinition,
  Page,
  ProgramCatalogue,
  RedirectTable,
  Site,
} from '../../generated/content-types.ts';
import type { SiteData } from '../../renderer/site-data.ts';
import { pagePath } from '../page-paths.ts';
import { readReviews, REVIEWS_DOCUMENT, type ReviewedPage } from '../page-reviews.ts';
import { siteUrlFrom } from '../site-url.ts';

function readDocument<T>(file: string): T {
  if (!existsSync(file)) throw new Error(`Content is missing ${file}`);
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as T;
  } catch (error) {
    throw new Error(`${file} is not valid JSON: ${(error as Error).message}`, { cause: error });
  }
}

/**
 * The site data of the content under `root`; its `siteUrl` is `siteUrl` when given, else SITE_URL, else site.json's url
 * (core/site-url.ts checks it is an origin).
 */
export function loadSiteData(root: string, siteUrl?: string): SiteData {
  const paths = contentPaths(root);
  const site = readDocument<Site>(paths.siteFile);
  const forms: Record<string, FormDefinition> = {};
  if (existsSync(paths.formsDir))
    for (const file of readdirSync(paths.formsDir)
      .filter((name) => name.endsWith('.json'))
      .sort())
      forms[basename(file, '.json')] = readDocument<FormDefinition>(join(paths.formsDir, file));
  return {
    site,
    siteUrl: siteUrlFrom(siteUrl ?? process.env.SITE_URL, site.url),
    forms,
    programs: readDocument<ProgramCatalogue>(paths.programsFile),
    redirects: readDocument<RedirectTable>(paths.redirectsFile),
  };
}

/** Every page document under `root`'s pages/ by its URL path, sorted by code unit (as the sitemap and tests expect). */
export function pageFiles(root: string): { path: string; file: string }[] {
  const { pagesDir } = contentPaths(root);
  if (!existsSync(pagesDir)) throw new Error(`Content has no pages folder: ${pagesDir}`);
  return readdirSync(pagesDir, { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.json'))
    .map((name) => {
      const file = join(pagesDir, name);
      return { path: pagePath(`pages/${relative(pagesDir, file).split(sep).join('/')}`), file };
    })
    .sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Every page's URL path under `root`. */
export const pagePaths = (root: string): string[] => pageFiles(root).map(({ path }) => path);

/**
 * Every page document under `root`, by URL path, each with its review line when the release's reviews document gives
 * it one (core/page-reviews.ts: written by a publish from an approval, never by hand).
 */
export function loadPages(root: string): Map<string, ReviewedPage> {
  const reviewsFile = join(root, ...REVIEWS_DOCUMENT.split('/'));
  const reviews = readReviews(existsSync(reviewsFile) ? readFileSync(reviewsFile, 'utf8') : undefined).pages;
  return new Map(
    pageFiles(root).map(({ path, file }) => {
      const page = readDocument<Page>(file);
      const entry = reviews[path];
      return [
        path,
        entry
          ? { ...page, review: { name: entry.name, credential: entry.credential, date: entry.date } }
          : page,
      ];
    }),
  );
}
