// npm run studio: the content studio on http://127.0.0.1:$STUDIO_PORT/ (5174 by default), on this computer only.
import { createServer } from 'node:http';
import { fileURLToPath } from 'node:url';
import { createServer as createViteServer } from 'vite';
import { createStudioApp } from './app.ts';

const port = Number(process.env.STUDIO_PORT ?? 5174);
if (!Number.isInteger(port) || port < 1 || port > 65535) {
  console.error(`STUDIO_PORT must be a port number, not "${process.env.STUDIO_PORT}"`);
  process.exit(1);
}

const server = createServer();
const vite = await createViteServer({
  configFile: fileURLToPath(new URL('../vite.config.ts', import.meta.url)),
  server: { middlewareMode: true, hmr: { server }, allowedHosts: ['127.0.0.1', 'localhost'] },
  appType: 'mpa',
});
server.on('request', createStudioApp(port, vite.middlewares));
server.listen(port, '127.0.0.1', () => console.log(`Studio: http://127.0.0.1:${port}/`));
