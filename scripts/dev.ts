// npm run dev: every request is rendered on the server from the current sources, with Vite's live reload.
// Editing a page document reloads the open browser; an invalid document shows the validator's error in the overlay.
import express from 'express';
import { createServer as createViteServer } from 'vite';
import type { Manifest } from '@tanstack/router-core';
import { ROOT } from '../content/paths.ts';
import { formatContentError, validateContent } from '../content/validate/validate-content.ts';
import { readConfig } from '../server/config.ts';
import { loadForms, loadSite } from '../server/content.ts';
import { createLeadPipeline } from '../server/lead-pipeline.ts';

type ServerEntry = { render: (url: string, manifest: Manifest) => Promise<{ status: number; html: string }> };

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
    const { render } = (await vite.ssrLoadModule('/renderer/entry-server.tsx')) as ServerEntry;
    const { status, html } = await render(req.originalUrl, devManifest);
    res.status(status).type('html').send(html);
  } catch (caught) {
    const error = caught instanceof Error ? caught : new Error(String(caught));
    vite.ssrFixStacktrace(error);
    console.error(error.message);
    res.status(500).type('html').send(overlayPage(error));
  }
});

app.listen(config.port, config.host, () => console.log(`Dev server: http://${config.host}:${config.port}/`));
