// The one way to start the studio as its own process (as `npm run studio` does), in a throwaway copy of the
// repository, so tests and the benchmark read and write real files without touching the project's own.
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyProject } from '../../scripts/lib/project-copy.ts';
import { freePort } from './free-port.ts';

export type StudioUnderTest = {
  url: string;
  port: number;
  dir: string;
  read: (file: string) => string;
  write: (file: string, text: string) => void;
  /** A request as the studio's own page makes it (its Host and Origin). */
  api: (path: string, init?: RequestInit) => Promise<Response>;
  stop: () => Promise<void>;
};

// Starting builds the editor (a few seconds; longer on a busy machine).
const STARTUP_LIMIT_MS = 120_000;

/** `dev`: the editor from Vite's dev server (`npm run studio -- --dev`) rather than its production build. */
export async function startStudio({ dev = false } = {}): Promise<StudioUnderTest> {
  // Its own folder, not a test's (tests/helpers/temp-dir.ts): it lives as long as the studio, which may serve a whole
  // file's tests. Removed, with the studio's build cache inside it (studio/cache-dir.ts), when the start fails or once
  // the studio stops.
  const dir = mkdtempSync(join(tmpdir(), 'studio-'));
  const removeFiles = () => rmSync(dir, { recursive: true, force: true });
  try {
    const studio = await startIn(dir, dev);
    return { ...studio, stop: () => studio.stop().finally(removeFiles) };
  } catch (error) {
    removeFiles();
    throw error;
  }
}

async function startIn(dir: string, dev: boolean): Promise<StudioUnderTest> {
  copyProject(dir);
  const port = await freePort();
  const args = ['--import', 'tsx', join(dir, 'studio/server/main.ts'), ...(dev ? ['--dev'] : [])];
  const child = spawn(process.execPath, args, {
    cwd: dir,
    env: { ...process.env, STUDIO_PORT: String(port) },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  child.stderr.setEncoding('utf8').on('data', (text: string) => (output += text));
  const exited = new Promise<void>((resolve) => child.once('close', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const started = Date.now();
  while (!output.includes('Studio:')) {
    if (child.exitCode !== null || Date.now() - started > STARTUP_LIMIT_MS) {
      child.kill('SIGKILL');
      await exited;
      throw new Error(`the studio did not start:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return {
    url,
    port,
    dir,
    read: (file) => readFileSync(join(dir, file), 'utf8'),
    write: (file, text) => writeFileSync(join(dir, file), text),
    api: (path, init = {}) =>
      fetch(`${url}${path}`, {
        ...init,
        headers: { origin: url, 'content-type': 'application/json', ...(init.headers ?? {}) },
      }),
    stop: async () => {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
    },
  };
}
