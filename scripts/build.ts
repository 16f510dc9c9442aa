// npm run build: validate content, build the client and render bundles (code only), prerender every page of the
// checkout's content with them (core/prerender/), then swap the result into dist/ in one step. A failure at any step
// leaves the previous dist/ untouched and writes no partial site.
import { execFileSync, spawn } from 'node:child_process';
import { cpSync, existsSync, renameSync, rmSync, mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { ROOT, contentPaths } from '../content/paths.ts';
import { precompress } from '../core/precompress.ts';
import { writeCodeFilesList } from '../core/prerender/code-files.ts';
import { loadSiteData } from '../core/prerender/content.ts';
import { redirectRules } from '../core/redirects.ts';
import { writeNginxSiteConf } from '../server/http/nginx-site.ts';

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

const staging = join(ROOT, '.build');
const code = join(staging, 'client');
const site = join(staging, 'site');
try {
  await step('validate', run(node, script('validate.ts')));
  for (const folder of ['site', 'nginx', 'content'])
    rmSync(join(staging, folder), { recursive: true, force: true });
  await step('client and render bundles', () =>
    Promise.all([
      runAsync(node, vite('--logLevel', 'warn')),
      runAsync(node, vite('--ssr', '--logLevel', 'warn')),
    ]),
  );
  // The code's own files, compressed once and listed: every prerender copies them as they are.
  const { files } = await step('compress the code', () => precompress(code));
  console.log(`compressed ${files} code files (brotli and gzip)`);
  writeCodeFilesList(code);
  // In a process of its own (scripts/prerender.ts over core/prerender/): React must load in production mode, which this
  // process's imports came before setting.
  await step(
    'prerender and compress pages',
    run(node, [...script('prerender.ts'), '--code', staging, '--out', site]),
  );
  writeNginxSiteConf(site, redirectRules(loadSiteData(ROOT).redirects), join(staging, 'nginx', 'site.conf'));
  // The documents dist/client was rendered from, as they are: the release engine's record of its content.
  const content = contentPaths(ROOT);
  for (const [from, to] of [
    [content.pagesDir, 'pages'],
    [dirname(content.siteFile), 'site'],
  ] as const)
    cpSync(from, join(staging, 'content', to), { recursive: true });
  // The staff inbox, after the site and apart from it: its own config and output, never prerendered.
  await step(
    'inbox app',
    run(node, vite('--config', join(ROOT, 'inbox', 'vite.config.ts'), '--logLevel', 'warn')),
  );
  // The studio's editor for the staff area (/staff/edit/, over the content API): the same editor, its own base.
  await step(
    'editor app',
    run(node, vite('--config', join(ROOT, 'studio', 'vite.staff.config.ts'), '--logLevel', 'warn')),
  );
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  console.error('Build failed: dist/ was not changed.');
  process.exit(1);
}

const dist = join(ROOT, 'dist');
const old = join(ROOT, '.build-old');
rmSync(old, { recursive: true, force: true });
if (existsSync(dist)) renameSync(dist, old);
mkdirSync(dist, { recursive: true });
renameSync(site, join(dist, 'client'));
renameSync(join(staging, 'server'), join(dist, 'server'));
renameSync(join(staging, 'nginx'), join(dist, 'nginx'));
renameSync(join(staging, 'inbox'), join(dist, 'inbox'));
renameSync(join(staging, 'editor'), join(dist, 'editor'));
renameSync(join(staging, 'content'), join(dist, 'content'));
rmSync(code, { recursive: true, force: true });
rmSync(old, { recursive: true, force: true });
console.log(
  'Built dist/client (static site), dist/server (render bundle), dist/nginx (the site for nginx), dist/inbox (the ' +
    'staff inbox), dist/editor (the editor online) and dist/content (the documents dist/client holds).',
);
