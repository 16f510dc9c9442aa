// The production server (server/index.ts) started as its own process on a free loopback port, as the browser tests,
// the size budget, the Lighthouse audit and the benchmarks drive it.
import { spawn, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { ROOT } from '../../core/content-schemas.ts';

/** A loopback port nobody listens on right now, so a server can be told where to listen before it starts. */
export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() =>
        typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port')),
      );
    });
  });
}

export interface ServerProcessOptions {
  /** Added to this process's environment; PORT and HOST are set here. */
  env?: NodeJS.ProcessEnv;
  /** Node flags for the server only, such as `--cpu-prof`. */
  nodeFlags?: readonly string[];
  /** Keep the server's output to show when it fails (true), or discard it (false: a benchmark's own CPU). */
  captureOutput?: boolean;
  startupTimeoutMs?: number;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** What the server printed so far (empty when not captured). */
  output: () => string;
  /** SIGTERM, and resolves once the server has shut down. */
  stop: () => Promise<void>;
}

/** Starts the server and resolves once it answers `/`; kills it and rejects, with its output, when it does not. */
export async function startServerProcess({
  env = {},
  nodeFlags = [],
  captureOutput = true,
  startupTimeoutMs = 20_000,
}: ServerProcessOptions = {}): Promise<ServerProcess> {
  const port = await freePort();
  let output = '';
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', join(ROOT, 'server', 'index.ts')], {
    cwd: ROOT,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1' },
    stdio: ['ignore', captureOutput ? 'pipe' : 'ignore', captureOutput ? 'pipe' : 'inherit'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + startupTimeoutMs;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (code ${child.exitCode}):\n${output}`);
    try {
      if ((await fetch(`${url}/`)).ok) break;
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`The server did not start in ${startupTimeoutMs / 1000} s:\n${output}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    child,
    output: () => output,
    stop: async () => {
      if (child.exitCode !== null) return;
      const exited = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      await exited;
    },
  };
}
