// npm run studio: the content studio on http://127.0.0.1:$STUDIO_PORT/ (5174 by default), on this computer only.
// The editor is served as a production build (made on first start and when its sources change); `-- --dev` serves
// it from Vite's dev server instead, for work on the studio itself.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import express from 'express';
import { createStudioApp } from './app.ts';
import { studioSiteData } from './site-data.ts';
import { warmSpelling } from '../../content/validate/spelling.ts';
import { studioClient } from './client-build.ts';
import { prepareStudioCache } from '../cache-dir.ts';
import { readArgs } from '../../core/cli.ts';

const port = Number(process.env.STUDIO_PORT ?? 5174);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`STUDIO_PORT must be a port number, not "${process.env.STUDIO_PORT}"`);
  process.exit(1);
}
const dev = readArgs(process.argv.slice(2), { dev: { type: 'boolean', default: false } }).values.dev;

const server = createServer();
let client: express.RequestHandler;
let how: string;
// The build cache (and Vite's optimized dependencies) in a folder that must be this user's own before either is used.
try {
  prepareStudioCache(fileURLToPath(new URL('../..', import.meta.url)));
} catch (error) {
  console.error((error as Error).message);
  process.exit(1);
}

if (dev) {
  const { createServer: createViteServer } = await import('vite');
  const vite = await createViteServer({
    configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
    server: { middlewareMode: true, hmr: { server }, allowedHosts: ['127.0.0.1', 'localhost'] },
    appType: 'mpa',
  });
  client = vite.middlewares;
  how = "Vite's dev server";
} else {
  const build = await studioClient(fileURLToPath(new URL('../..', import.meta.url)));
  // Asset names carry their content's hash; the pages are asked for again each time.
  client = express.static(build.dir, {
    setHeaders: (res, path) =>
      res.setHeader(
        'cache-control',
        path.endsWith('.html') ? 'no-cache' : 'public, max-age=31536000, immutable',
      ),
  });
  how = build.built ? 'editor built' : 'editor unchanged since its last build';
}
server.on('request', createStudioApp(port, client));
warmSpelling();
studioSiteData(); // Remembers the site documents as they are now, should one be broken later.
server.listen(port, '127.0.0.1', () =>
  console.log(`Studio: http://127.0.0.1:${port}/ (ready in ${process.uptime().toFixed(1)} s; ${how})`),
);
