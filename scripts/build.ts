// npm run build: validate content, build client and server bundles, prerender every page, then swap the result
// into dist/ in one step. A failure at any step leaves the previous dist/ untouched and writes no partial site.
import { execFileSync } from 'node:child_process';
import { existsSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from './lib/content-schemas.ts';
import { precompress } from './lib/precompress.ts';

const run = (command: string, args: string[]) => execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });

try {
  run('npx', ['tsx', 'scripts/validate.ts']);
  run('npx', ['vite', 'build', '--logLevel', 'warn']);
  run('npx', ['vite', 'build', '--ssr', '--logLevel', 'warn']);
  run('npx', ['tsx', 'scripts/prerender.ts']);
  const { files } = precompress(join(ROOT, '.build', 'client'));
  console.log(`precompressed ${files} files (brotli and gzip)`);
} catch {
  console.error('Build failed: dist/ was not changed.');
  process.exit(1);
}

const dist = join(ROOT, 'dist');
const staging = join(ROOT, '.build');
const old = join(ROOT, '.build-old');
rmSync(old, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, old);
mkdirSync(dist, { recursive: true });
renameSync(join(staging, 'client'), join(dist, 'client'));
renameSync(join(staging, 'server'), join(dist, 'server'));
renameSync(join(staging, 'nginx'), join(dist, 'nginx'));
rmSync(old, { recursive: true, force: true });
console.log(
  'Built dist/client (static site), dist/server (render bundle) and dist/nginx (redirects for nginx).',
);
