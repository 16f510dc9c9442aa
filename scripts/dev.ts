// npm run dev: every request is rendered on the server from the current sources, with Vite's live reload.
// Editing a page document reloads the open browser; an invalid document shows the validator's error in the overlay.
import express from 'express';
import { createServer as createViteServer } from 'vite';
import type { Manifest } from '@tanstack/router-core';
import { ROOT } from '../content/paths.ts';
import { PAGE_DATA_DIR } from '../core/page-paths.ts';
import { loadPages, loadSiteData } from '../core/prerender/content.ts';
import type { RenderBundle } from '../core/prerender/render.ts';
import { formatContentError, validateContent } from '../content/validate/validate-content.ts';
import { readConfig } from '../server/config.ts';
import { loadForms, loadSite } from '../server/content.ts';
import { createLeadPipeline } from '../server/lead-pipeline.ts';

/** Where the browser reads the site data in development: the checkout's, read afresh on every request. */
const SITE_DATA_URL = '/_data/site.json';

const config = readConfig({ PORT: '5173', ...process.env });

const vite = await createViteServer({ root: ROOT, server: { middlewareMode: true }, appType: 'custom' });

// Any content edit, including one that fixes an error shown in the overlay, reloads the open pages.
const CONTENT = /[\\/](pages|site)[\\/].+\.json$/;
vite.watcher.on('all', (_event, file) => {
  if (CONTENT.test(file)) vite.ws.send({ type: 'full-reload' });
});

// React Refresh needs its preamble before the entry; Vite produces it for an HTML page.
const preamble = await vite.transformIndexHtml('/', '<html><head></head><body></body></html>');
const refreshScript = /<script type="module">([\s\S]*?)<\/script>/.exec(preamble)?.[1] ?? '';
const devManifest: Manifest = {
  routes: {
    __root__: {
      scripts: [
        { attrs: { type: 'module' }, children: refreshScript },
        { attrs: { type: 'module', src: '/@vite/client' } },
        { attrs: { type: 'module', src: '/renderer/entry-client.tsx' } },
      ],
    },
  },
};

const overlayPage = (
  error: Error,
) => `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Content error</title>
<script type="module">
import { ErrorOverlay } from '/@vite/client';
document.body.appendChild(new ErrorOverlay(${JSON.stringify({ message: error.message, stack: error.stack ?? '' })}));
</script></head><body></body></html>`;

// Forms work in development too: same API, same SQLite store (LEADS_DB), same chat alerts.
const leads = await createLeadPipeline(config, loadSite(), loadForms());
leads.worker.start();

const app = express();
app.use(leads.forms.posts);
app.use(leads.forms.router);
// The data files the prerender writes, made from the checkout's documents on every request (so an edit shows at once).
app.get(SITE_DATA_URL, (_req, res) => void res.set('cache-control', 'no-store').json(loadSiteData(ROOT)));
app.get(`/${PAGE_DATA_DIR}/{*splat}`, (req, res) => {
  const file = req.path.slice(`/${PAGE_DATA_DIR}`.length).replace(/\.json$/, '');
  const page = loadPages(ROOT).get(file === '/index' ? '/' : file);
  res.set('cache-control', 'no-store');
  if (page) res.json(page);
  else res.status(404).json({ error: 'no such page' });
});
app.use(vite.middlewares);
app.use(async (req, res) => {
  try {
    // The router would turn a broken document into its error screen; staff should see the validator's words instead.
    const problems = validateContent({ root: ROOT });
    if (problems.length > 0) {
      const message = `${problems.length} content error${problems.length === 1 ? '' : 's'}:\n${problems.map(formatContentError).join('\n')}`;
      res
        .status(500)
        .type('html')
        .send(overlayPage(Object.assign(new Error(message), { stack: '' })));
      return;
    }
    const { render } = (await vite.ssrLoadModule('/renderer/entry-server.tsx')) as RenderBundle;
    const pages = loadPages(ROOT);
    const { status, html } = await render(req.originalUrl, devManifest, {
      loadPage: (path) => Promise.resolve(pages.get(path)),
      siteData: loadSiteData(ROOT),
      siteDataUrl: SITE_DATA_URL,
    });
    res.status(status).type('html').send(html);
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    vite.ssrFixStacktrace(error);
    console.error(error.message);
    res.status(500).type('html').send(overlayPage(error));
  }
});

app.listen(config.port, config.host, () => console.log(`Dev server: http://${config.host}:${config.port}/`));
