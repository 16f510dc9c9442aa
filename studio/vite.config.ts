import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('./client', import.meta.url));
const repository = fileURLToPath(new URL('..', import.meta.url));

// The studio's own Vite config: never part of the site's build (vite.config.ts at the root knows nothing of it).
export default defineConfig({
  root,
  plugins: [react()],
  // Its own cache, so the studio and `npm run dev` never invalidate each other's optimized dependencies.
  cacheDir: `${repository}/node_modules/.vite-studio`,
  publicDir: `${repository}/public`,
  envPrefix: ['VITE_', 'SITE_URL'],
  server: { fs: { allow: [repository] } },
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
