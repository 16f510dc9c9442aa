import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
import { contentValidation } from './scripts/lib/vite-content-plugin.ts';

// One config for the client build (`vite build`), the server-render build (`vite build --ssr`) and the dev server.
export default defineConfig(({ isSsrBuild }) => ({
  plugins: [react(), contentValidation()],
  publicDir: 'public',
  // The bundles are code only: no content, and no SITE_URL either (the prerender puts the origin in the site data).
  envPrefix: ['VITE_'],
  // Pages carry their CSS inline (core/prerender/manifest.ts): the router then hydrates that <style> from the page itself
  // instead of expecting the CSS text in its hydration data.
  define: { 'process.env.TSS_INLINE_CSS_ENABLED': JSON.stringify('true') },
  // Bundled into the server render too, so only the icons and components used are loaded, not whole barrels.
  ssr: { noExternal: ['@tabler/icons-react', '@mantine/core', '@mantine/hooks'] },
  build: isSsrBuild
    ? {
        outDir: '.build/server',
        emptyOutDir: true,
        copyPublicDir: false,
        rolldownOptions: { input: 'renderer/entry-server.tsx' },
      }
    : {
        outDir: '.build/client',
        emptyOutDir: true,
        manifest: true,
        assetsDir: 'assets',
        rolldownOptions: { input: 'renderer/entry-client.tsx' },
      },
}));
