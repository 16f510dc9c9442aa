// The production entry (`node --import tsx server/index.ts`) as a child process on a free loopback port, for the tests
// that need a real process: killed with SIGKILL, restarted on the same database, refused at start.
import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { freePort } from '../../scripts/lib/server-process.ts';

const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const START_TIMEOUT_MS = 30_000;

export interface ChildServer {
  url: string;
  child: ChildProcess;
  /** Everything it wrote so far (its JSON log on stdout, start-up errors on stderr). */
  output: () => string;
  /** Sends `signal` and resolves when the process is gone. */
  kill: (signal: NodeJS.Signals) => Promise<void>;
}

function launch(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--import', 'tsx', join(ROOT, 'server', 'index.ts')], {
    cwd: ROOT,
    env: { ...process.env, HOST: '127.0.0.1', LOG_LEVEL: 'info', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  return { child, output: () => output };
}

const exited = (child: ChildProcess): Promise<void> =>
  child.exitCode !== null || child.signalCode !== null
    ? Promise.resolve()
    : new Promise((resolve) => child.once('exit', () => resolve()));

/** Starts the server with `env` (LEADS_DB, CLIENT_DIR, ...) and resolves once it answers on its port. */
export async function startChildServer(env: Record<string, string>): Promise<ChildServer> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const { child, output } = launch({ ...env, PORT: String(port) });
  const kill = async (signal: NodeJS.Signals) => {
    const gone = exited(child);
    child.kill(signal);
    await gone;
  };
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (child.exitCode === null) {
    try {
      if ((await fetch(`${url}/`)).ok) return { url, child, output, kill };
    } catch {
      // not listening yet
    }
    if (Date.now() > deadline) {
      await kill('SIGKILL');
      throw new Error(`the server did not start in time:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`the server exited with ${child.exitCode} before serving:\n${output()}`);
}

/** Runs the server with `env` expecting it to refuse to start; resolves with its exit code and output. */
export async function startFailing(
  env: Record<string, string>,
): Promise<{ code: number | null; output: string }> {
  const { child, output } = launch({ ...env, PORT: String(await freePort()) });
  // 'close', not 'exit': the last words on stderr may arrive after the process ended.
  const closed = new Promise((resolve) => child.once('close', resolve));
  const timer = setTimeout(() => child.kill('SIGKILL'), START_TIMEOUT_MS);
  await closed;
  clearTimeout(timer);
  return { code: child.exitCode, output: output() };
}
