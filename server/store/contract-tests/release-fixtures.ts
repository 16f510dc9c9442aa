// What the release store's contract tests share (store-contract-releases and store-contract-release-lock): a release
// to store, a wait, and a process of its own that holds the publish lock until it is killed.
import { type ChildProcess, spawn } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { afterEach } from 'vitest';
import type { NewRelease } from '../contract/release-store.ts';

const HOLDER = fileURLToPath(new URL('./publish-lock-holder.ts', import.meta.url));
const ROOT = fileURLToPath(new URL('../../../', import.meta.url));

/** Every byte value, so that a store that treated bytes as text would be caught. */
export const BINARY = Buffer.from(Array.from({ length: 256 }, (_, n) => n));

export const release = (overrides: Partial<NewRelease> = {}): NewRelease => ({
  files: [
    { path: 'index.html', bytes: Buffer.from('<h1>Welcome</h1>') },
    { path: 'index.html.br', bytes: BINARY },
    { path: 'assets/entry-1a2b.js', bytes: Buffer.from('console.log(1)') },
    { path: 'robots.txt', bytes: Buffer.alloc(0) },
  ],
  documents: [
    { path: 'site/site.json', text: '{"brand":"Harbor Café — “recovery”"}\n' },
    { path: 'pages/index.json', text: '{"title":"Home"}\n' },
  ],
  codeVersion: '1.0.0+abc1234.deadbeef',
  author: 'cli:ann',
  message: 'First release',
  ...overrides,
});

export const waitFor = async (check: () => boolean | Promise<boolean>, what: string, ms = 10_000) => {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
};

/** Lock holders started by the calling file's tests, killed after each test. */
export function useLockHolders(): (kind: string, location: string) => Promise<ChildProcess> {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null) child.kill('SIGKILL');
  });
  return async (kind, location) => {
    const child = spawn(process.execPath, ['--import', 'tsx', HOLDER, kind, location], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    children.push(child);
    let output = '';
    child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
    await waitFor(
      () => {
        if (child.exitCode !== null) throw new Error(`the lock holder exited: ${output}`);
        return output.includes('held');
      },
      'the lock holder to take the lock',
      20_000,
    );
    return child;
  };
}
