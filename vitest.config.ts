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
    // Browser tests share one built site and one server per file; keep files parallel, machine has 2 cores.
    maxWorkers: 2,
  },
});
