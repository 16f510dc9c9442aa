import { fileURLToPath } from 'node:url';
import { defineConfig, mergeConfig, type Plugin } from 'vite';
import studio from './vite.config.ts';

const repository = fileURLToPath(new URL('..', import.meta.url));

/**
 * The staff area's CSP allows a <style> only with the response's nonce: each page gets the meta the server fills in
 * (server/staff/staff-editor.ts), which the editor and its preview frames hand to Mantine and the renderer's styles.
 */
const nonceMeta: Plugin = {
  name: 'staff-csp-nonce',
  transformIndexHtml: (html) =>
    html.replace(
      '<meta charset="utf-8" />',
      '<meta charset="utf-8" />\n    <meta name="csp-nonce" content="__CSP_NONCE__" />',
    ),
};

// The studio's editor built for the staff area (`npm run build`, served under /staff/edit/ over the content API): the
// same sources and pages as `npm run studio`'s build, another base and output, and no public folder (the site's).
export default mergeConfig(
  studio,
  defineConfig({
    base: '/staff/edit/',
    plugins: [nonceMeta],
    publicDir: false,
    build: {
      outDir: `${repository}/.build/editor`,
      emptyOutDir: true,
      assetsDir: 'assets',
      // No inline script under the staff CSP: Vite's preload polyfill would be one.
      modulePreload: { polyfill: false },
      // The editor carries the renderer, every block, Mantine and the form generator: one visit per working session.
      chunkSizeWarningLimit: 2000,
    },
  }),
);
