// What one request is answered from: the site of one release (its files in memory and its old addresses), taken
// once when the request arrives, so a release put live meanwhile never mixes into an answer already begun.
import type { IncomingMessage } from 'node:http';
import type { RedirectRule } from '../../core/redirects.ts';
import { loadStaticSite, type StaticSite } from './static-pages.ts';

export interface ServedSite {
  /** The release's id, or null for a folder served as it is (a hand-made build in tests). */
  readonly release: number | null;
  readonly files: StaticSite;
  readonly redirects: readonly RedirectRule[];
}

/** Where the server finds the site to answer with now: the live release (server/releases/), or a fixed folder. */
export interface SiteSource {
  current(): ServedSite;
}

const servedBy = new WeakMap<IncomingMessage, ServedSite>();

/** Ties the request to the site it is answered from (server/app.ts, as it arrives). */
export function answerFrom(req: IncomingMessage, site: ServedSite): void {
  servedBy.set(req, site);
}

/** The site the request was tied to when it arrived. */
export function servedSiteOf(req: IncomingMessage): ServedSite {
  const site = servedBy.get(req);
  if (!site) throw new Error("a request reached the site's routes without a site (server/app.ts ties one)");
  return site;
}

/** A built folder answered as it is, never changing: for the tests that build a site by hand. */
export function folderSite(clientDir: string, redirects: readonly RedirectRule[]): SiteSource {
  const site: ServedSite = { release: null, files: loadStaticSite(clientDir), redirects };
  return { current: () => site };
}
