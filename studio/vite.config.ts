import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { studioCacheDir } from './cache-dir.ts';

const root = fileURLToPath(new URL('./client', import.meta.url));
const repository = fileURLToPath(new URL('..', import.meta.url));

// The studio's own Vite config: never part of the site's build (vite.config.ts at the root knows nothing of it).
export default defineConfig({
  root,
  plugins: [react()],
  // Apart from `npm run dev`'s cache, and one per checkout.
  cacheDir: studioCacheDir(repository),
  publicDir: `${repository}/public`,
  envPrefix: ['VITE_', 'SITE_URL'],
  server: { fs: { allow: [repository] } },
  // `npm run studio` builds both pages (studio/server/client-build.ts); the dev server finds them on its own.
  build: {
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
