// One page of a change set rendered by the real renderer (the built render bundle in dist/, as a release's pages are),
// for a preview link: the set's documents over the live ones in a temporary content root, and only that page's target
// rendered, in a process of its own (core/prerender/worker.ts: the render bundle keeps a render's site data in its
// module, and renders in React's production build). Kept in memory by content and page, so a link opened again (or by
// a second reviewer) answers at once.
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { htmlFile } from '../../core/page-paths.ts';
import { loadPages, loadSiteData } from '../../core/prerender/content.ts';
import { renderInProcess } from '../../core/prerender/index.ts';
import { renderTargets } from '../../core/prerender/render.ts';
import { withContentRoot } from '../releases/documents.ts';
import type { ReleaseDocument } from '../store/contract/release-store.ts';

const KEPT = 16;
const rendered = new Map<string, Promise<string>>();

async function render(codeDir: string, documents: readonly ReleaseDocument[], path: string): Promise<string> {
  return withContentRoot(documents, async (contentRoot, outDir) => {
    const targets = renderTargets([...loadPages(contentRoot).keys()]);
    const index = targets.findIndex((target) => target.path === path && target.status === 200);
    if (index < 0) throw new RangeError(`no page ${path} in this change set's site`);
    const result = await renderInProcess(
      {
        codeDir,
        contentRoot,
        outDir,
        siteUrl: loadSiteData(contentRoot).siteUrl,
        // Never fetched: a preview is served without scripts.
        siteDataUrl: '/_data/preview.json',
        // No "Medically reviewed by" line: what a preview shows is not published, so no review of it holds yet.
        reviews: {},
        first: index,
        count: targets.length,
      },
      'the preview render',
    );
    if (result.failures.length > 0) throw new Error(result.failures.join('\n'));
    return readFileSync(join(outDir, htmlFile(path)), 'utf8');
  });
}

/** The HTML of page `path` of the site `documents` make, as the build renders it; `key` names that content. */
export function renderPreview(
  codeDir: string,
  documents: readonly ReleaseDocument[],
  path: string,
  key: string,
): Promise<string> {
  const id = `${key}:${path}`;
  let page = rendered.get(id);
  if (!page) {
    page = render(codeDir, documents, path);
    page.catch(() => rendered.delete(id));
    rendered.set(id, page);
    for (const old of rendered.keys()) if (rendered.size > KEPT) rendered.delete(old);
  }
  return page;
}
