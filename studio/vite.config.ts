import { realpathSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { studioCacheDir } from './cache-dir.ts';

const root = fileURLToPath(new URL('./client', import.meta.url));
const repository = fileURLToPath(new URL('..', import.meta.url));

/**
 * What `npm run studio -- --dev` may serve (through `/@fs/` too): the editor and the folders its pages import, and the
 * installed packages (by their real path: a copy's node_modules may be a link). Never the lead database, its key, or an
 * environment file, even if something under an allowed folder names one.
 */
const devFiles = {
  strict: true,
  allow: [
    root,
    ...['renderer', 'blocks', 'core', 'content', 'generated', 'pages', 'site', 'schemas', 'public'].map(
      (folder) => join(repository, folder),
    ),
    realpathSync(join(repository, 'node_modules')),
  ],
  deny: [`${join(repository, 'data')}/**`, '**/*.key', '.env', '.env.*', '*.{crt,pem}', '**/.git/**'],
};

// The studio's own Vite config: never part of the site's build (vite.config.ts at the root knows nothing of it).
export default defineConfig({
  root,
  plugins: [react()],
  // Apart from `npm run dev`'s cache, in the checkout's own studio cache (0700, made by studio/server/main.ts).
  cacheDir: join(studioCacheDir(repository), 'vite'),
  publicDir: `${repository}/public`,
  envPrefix: ['VITE_', 'SITE_URL'],
  server: { fs: devFiles },
  // `npm run studio` builds both pages (studio/server/client-build.ts); the dev server finds them on its own.
  build: {
    // The site data is read before the editor starts (client/site-data.ts: a top-level await).
    target: 'es2022',
    rolldownOptions: { input: { index: `${root}/index.html`, preview: `${root}/preview.html` } },
  },
  define: { 'process.env.TSS_INLINE_CSS_ENABLED': JSON.stringify('true') },
  // Listed up front so the first visit does not discover them one by one and reload the editor.
  optimizeDeps: {
    entries: ['index.html', 'preview.html'],
    include: [
      'react',
      'react-dom',
      'react-dom/client',
      '@mantine/core',
      '@mantine/hooks',
      '@tabler/icons-react',
      '@tanstack/react-router',
      '@dnd-kit/core',
      '@dnd-kit/sortable',
      '@dnd-kit/utilities',
    ],
  },
});
