import { fileURLToPath } from 'node:url';
import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';

const root = fileURLToPath(new URL('.', import.meta.url));
const repository = fileURLToPath(new URL('..', import.meta.url));

// The admissions inbox's own Vite config: a client-only app served by the server under /staff/, never prerendered,
// and apart from the site's build (vite.config.ts at the root knows nothing of it), so no visitor loads its code.
export default defineConfig({
  root,
  base: '/staff/',
  plugins: [react()],
  // The site's public files (favicons, robots) belong to the site, not to the staff area.
  publicDir: false,
  build: {
    outDir: `${repository}/.build/inbox`,
    emptyOutDir: true,
    assetsDir: 'assets',
    // The staff area's CSP allows no inline script; Vite's preload polyfill is one more thing to run before the app.
    modulePreload: { polyfill: false },
    // One chunk of about 160 KB gzip (React, Mantine, the router, the passkey client), loaded once per sign-in and
    // then cached; splitting it would only add requests for a staff member on a phone.
    chunkSizeWarningLimit: 600,
  },
});
