// npm run build: validate content, build client and server bundles, prerender every page, then swap the result
// into dist/ in one step. A failure at any step leaves the previous dist/ untouched and writes no partial site.
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../content/paths.ts';
import { precompress } from '../core/precompress.ts';

/** Runs one step and says how long it took, so a slow build shows which step to look at. */
async function step<T>(name: string, work: () => T | Promise<T>): Promise<T> {
  const started = performance.now();
  const result = await work();
  console.log(`${name}: ${((performance.now() - started) / 1000).toFixed(1)} s`);
  return result;
}
const run = (command: string, args: string[]) => () =>
  void execFileSync(command, args, { cwd: ROOT, stdio: 'inherit' });
/** Runs a command without blocking, so independent steps use both cores. */
const runAsync = (command: string, args: string[]) =>
  new Promise<void>((resolve, reject) =>
    spawn(command, args, { cwd: ROOT, stdio: 'inherit' }).on('close', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} ${args.join(' ')} failed`)),
    ),
  );

// A build is for production whatever the shell says: React renders the pages in its production mode, twice as fast
// as its development mode (which the prerender got when NODE_ENV was unset), and every step inherits it.
process.env.NODE_ENV = 'production';

// Each step is Node itself, not npx (which starts npm first) or tsx's CLI (which starts a second Node): about a second
// of start-up saved per build.
const node = process.execPath;
const script = (file: string) => ['--import', 'tsx', join(ROOT, 'scripts', file)];
const vite = (...args: string[]) => [join(ROOT, 'node_modules', 'vite', 'bin', 'vite.js'), 'build', ...args];

try {
  await step('validate', run(node, script('validate.ts')));
  await step('client and render bundles', () =>
    Promise.all([
      runAsync(node, vite('--logLevel', 'warn')),
      runAsync(node, vite('--ssr', '--logLevel', 'warn')),
    ]),
  );
  await step('prerender and compress pages', run(node, script('prerender.ts')));
  const { files } = await step('compress other files', () => precompress(join(ROOT, '.build', 'client')));
  console.log(`compressed ${files} other files (brotli and gzip)`);
  // The staff inbox, after the site and apart from it: its own config and output, never prerendered.
  await step(
    'inbox app',
    run(node, vite('--config', join(ROOT, 'inbox', 'vite.config.ts'), '--logLevel', 'warn')),
  );
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
renameSync(join(staging, 'inbox'), join(dist, 'inbox'));
rmSync(old, { recursive: true, force: true });
console.log(
  'Built dist/client (static site), dist/server (render bundle), dist/nginx (the site for nginx) and dist/inbox (the staff inbox).',
);
