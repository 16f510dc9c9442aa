import { availableParallelism } from 'node:os';
import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

export default defineConfig({
  plugins: [react()],
  test: {
    environment: 'node',
    // The checkout's site data, which the renderer no longer bundles (renderer/site-data.ts).
    setupFiles: ['tests/helpers/site-data.ts'],
    include: ['**/*.test.{ts,tsx}'],
    exclude: ['node_modules/**', 'dist/**', '.build/**'],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    // Browser tests share one built site and one server per file; files run in parallel, one per core (two at least,
    // four at most: each browser file starts Chromium and a server, and their timing assertions want headroom).
    maxWorkers: Math.min(4, Math.max(2, availableParallelism())),
  },
});
