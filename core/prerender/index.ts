// The prerender as a library: a built code folder (the client assets and the render bundle) and a content folder in,
// the whole static site out. Run by `npm run build` (scripts/prerender.ts) and by the release engine, on a production
// install: no Vite, `dependencies` only.
import { fork } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROOT } from '../../content/paths.ts';
import type { PageReviews } from '../../renderer/medical-review.ts';
import { CSP_HASHES_FILE, type CspHashes } from '../csp.ts';
import { siteDataFile } from '../page-paths.ts';
import { netlifyRedirects, redirectRules } from '../redirects.ts';
import { copyCodeFiles } from './code-files.ts';
import { loadPages, loadSiteData } from './content.ts';
import { renderShare, renderTargets, writeWithCopies, type RenderJob, type RenderResult } from './render.ts';
import { robotsTxt, sitemapXml } from './static-files.ts';

export interface PrerenderOptions {
  /** A built code folder: `<codeDir>/client/` (assets/, .vite/manifest.json, public files) and
   *  `<codeDir>/server/entry-server.js` — i.e. `dist/` or `.build/`. */
  codeDir: string;
  /** A content root holding `pages/` and `site/` (contentPaths(root) in content/paths.ts). */
  contentRoot: string;
  /** Empty or missing folder to write the whole site to: every file a visitor can get (pages .html + .br + .gz,
   *  404.html, the hashed assets copied from codeDir/client (with .br/.gz), public files, sitemap.xml, robots.txt,
   *  _redirects, the CSP hashes file, per-page data files). */
  outDir: string;
  siteUrl?: string; // default: process.env.SITE_URL, then site.json's url (as today)
  /** The clinical reviews that hold for this content, by page path: only a publish from an approval gives them. */
  reviews?: PageReviews;
}

// A large site renders in one process per core: each renders a share of the pages and reports back over IPC.
// Below PAGES_PER_PROCESS pages a second process costs more to start than it saves.
const PAGES_PER_PROCESS = 100;
const WORKER = fileURLToPath(new URL('./worker.ts', import.meta.url));

// The render bundle keeps the site data of the render in progress in its module (renderer/site-data.ts): two
// prerenders in one process (a server publishing twice at once) take turns rendering, never interleave.
let inProcessTurn: Promise<unknown> = Promise.resolve();
function inTurn<T>(work: () => Promise<T>): Promise<T> {
  const run = inProcessTurn.then(work, work);
  inProcessTurn = run.catch(() => undefined);
  return run;
}

/**
 * Renders `job` in a process of its own (worker.ts), in React's production build; `what` names it in the error when
 * the process fails. Also a change set's preview (server/content-staff/preview-render.ts).
 */
export function renderInProcess(job: RenderJob, what: string): Promise<RenderResult> {
  return new Promise<RenderResult>((resolve, reject) => {
    const child = fork(WORKER, [], {
      // tsx is a dependency: the worker runs from its TypeScript source, as the server does.
      execArgv: ['--import', 'tsx'],
      // From the code's own folder, where `tsx` resolves, whatever folder the caller runs in.
      cwd: ROOT,
      // Rendered by React's production build whatever the caller's NODE_ENV: the development build renders other bytes
      // (a server started without NODE_ENV, a test runner's "test") and takes twice as long.
      env: { ...process.env, NODE_ENV: 'production', PRERENDER_JOB: JSON.stringify(job) },
    });
    let answer: RenderResult | undefined;
    child.on('message', (message) => (answer = message as RenderResult));
    child.on('error', reject);
    child.on('exit', (code) =>
      answer && code === 0 ? resolve(answer) : reject(new Error(`${what} failed (exit code ${code})`)),
    );
  });
}

/**
 * Renders every page of `contentRoot` with the code of `codeDir` into `outDir`. Throws on any failure, and then
 * leaves `outDir` empty again: never a partial site.
 */
export async function prerenderSite(options: PrerenderOptions): Promise<{ pages: number }> {
  const { codeDir, outDir } = options;
  if (!existsSync(join(codeDir, 'server', 'entry-server.js')))
    throw new Error(`${codeDir} is not a built code folder: no server/entry-server.js (run npm run build)`);
  if (existsSync(outDir) && readdirSync(outDir).length > 0)
    throw new Error(`The prerender writes a whole site into an empty folder; ${outDir} is not empty`);
  try {
    return await writeSite(options);
  } catch (error) {
    // The folder was empty or missing: what is in it now is this run's, unfinished.
    for (const entry of existsSync(outDir) ? readdirSync(outDir) : [])
      rmSync(join(outDir, entry), { recursive: true, force: true });
    throw error;
  }
}

async function writeSite({
  codeDir,
  contentRoot,
  outDir,
  siteUrl,
  reviews = {},
}: PrerenderOptions): Promise<{ pages: number }> {
  const clientDir = join(codeDir, 'client');
  const siteData = loadSiteData(contentRoot, siteUrl);
  const pages = loadPages(contentRoot);
  const targets = renderTargets([...pages.keys()]);

  mkdirSync(join(outDir, '_data'), { recursive: true });
  copyCodeFiles(clientDir, outDir);
  // The site data, named by its hash: cached for good, and a new release's is a new file.
  const siteJson = JSON.stringify(siteData);
  const hash = createHash('sha256').update(siteJson).digest('base64url').slice(0, 16);
  const siteDataUrl = `/${siteDataFile(hash)}`;
  writeWithCopies(join(outDir, siteDataFile(hash)), siteJson);

  const processes = Math.max(
    1,
    Math.min(availableParallelism(), Math.floor(targets.length / PAGES_PER_PROCESS)),
  );
  const job = (first: number): RenderJob => ({
    codeDir,
    contentRoot,
    outDir,
    siteUrl: siteData.siteUrl,
    siteDataUrl,
    reviews,
    first,
    count: processes,
  });
  // In this process only when it renders in production mode already (npm run build); else one process of its own.
  const shares =
    processes === 1 && process.env.NODE_ENV === 'production'
      ? [await inTurn(() => renderShare(job(0)))]
      : await Promise.all(
          Array.from({ length: processes }, (_, first) =>
            renderInProcess(job(first), `prerender process ${first + 1} of ${processes}`),
          ),
        );
  const failures = shares.flatMap((share) => share.failures);
  if (failures.length) throw new Error(`The prerender failed:\n${failures.join('\n')}`);
  const cspHashes: CspHashes = Object.assign({}, ...shares.map((share) => share.cspHashes));
  writeFileSync(join(outDir, CSP_HASHES_FILE), `${JSON.stringify(cspHashes, null, 2)}\n`);

  // The sitemap and robots.txt name the same origin as the pages' canonical links.
  const deployedSite = { ...siteData.site, url: siteData.siteUrl };
  const sitePages = [...pages].map(([path, page]) => ({ path, page }));
  writeWithCopies(join(outDir, 'sitemap.xml'), await sitemapXml(deployedSite, sitePages));
  writeWithCopies(join(outDir, 'robots.txt'), robotsTxt(deployedSite));
  writeFileSync(join(outDir, '_redirects'), netlifyRedirects(redirectRules(siteData.redirects)));
  return { pages: pages.size };
}
