// The one way to run the production server (`node --import tsx server/index.ts`) as its own process, on a free
// loopback port: the browser, quality and server tests, the size budget, the Lighthouse audit and the benchmarks all
// start it here. (tests/helpers/in-process-server.ts builds the same app inside the test process instead, for tests
// that reach into its store; it starts no process.)
//
// The server's settings come from the caller only: the variables server/config.ts reads are not
// inherited from this process's environment, so a developer's shell cannot change what a test runs against. Unless
// told otherwise the server keeps its leads in a throwaway in-memory database, never in the project's data/.
import { spawn, type ChildProcess } from 'node:child_process';
import { freePort } from '../../tests/helpers/free-port.ts';
import { join } from 'node:path';
import { ROOT } from '../../content/paths.ts';
import { ENVIRONMENT } from '../../server/config.ts';

const DEFAULT_STARTUP_TIMEOUT_MS = 30_000;
const POLL_MS = 50;

/** The variables the server reads (PORT and HOST are chosen here). */
type ServerVariable = Exclude<keyof typeof ENVIRONMENT, 'PORT' | 'HOST'>;
export type ServerEnv = { [name in ServerVariable]?: string };
const SERVER_VARIABLES: readonly string[] = Object.keys(ENVIRONMENT);

export interface ServerProcessOptions {
  /** The server's settings: LEADS_DB, CLIENT_DIR, CHAT_WEBHOOK_URL, FORM_RATE_LIMIT, LOG_LEVEL, TRUST_PROXY... */
  env?: ServerEnv;
  /** Node flags for the server only, such as `--cpu-prof`. */
  nodeFlags?: readonly string[];
  /**
   * Keep what the server writes, for output() and logs() and for the error when it fails to start (true, the
   * default); or discard its log and pass its stderr through (false: a benchmark's CPU is the server's).
   */
  captureOutput?: boolean;
  /** How long it may take to answer `/` (a limit for hangs, never a measurement); 30 s by default. */
  startupTimeoutMs?: number;
  /** Listen on this port (a server started again where its clients still are); a free one by default. */
  port?: number;
}

export interface ServerProcess {
  url: string;
  child: ChildProcess;
  /** Everything it wrote so far, stdout (its JSON log) and stderr as they came; empty when not captured. */
  output: () => string;
  /** Its JSON log lines on stdout so far, parsed. */
  logs: () => Record<string, unknown>[];
  /**
   * Sends `signal` (SIGTERM, a graceful shutdown, by default; SIGKILL for a crash) and resolves once the process has
   * exited and its output is read. Does nothing more when it has already exited.
   */
  stop: (signal?: NodeJS.Signals) => Promise<void>;
  /**
   * Stops it (SIGTERM) if it still runs, and starts it again with the same options: the same database, a new port
   * unless `port` was given.
   */
  restart: () => Promise<ServerProcess>;
}

interface Launched {
  child: ChildProcess;
  output: () => string;
  logs: () => Record<string, unknown>[];
  /** Resolves once the process has exited and closed its output. */
  closed: Promise<void>;
}

function launch(
  port: number,
  { env = {}, nodeFlags = [], captureOutput = true }: ServerProcessOptions,
): Launched {
  const inherited = Object.entries(process.env).filter(([name]) => !SERVER_VARIABLES.includes(name));
  const child = spawn(process.execPath, [...nodeFlags, '--import', 'tsx', join(ROOT, 'server', 'index.ts')], {
    cwd: ROOT,
    env: {
      ...Object.fromEntries(inherited),
      LEADS_DB: ':memory:',
      // The staff area at localhost, where a browser's passkey works (127.0.0.1 is refused there: server/staff/).
      STAFF_ORIGIN: `http://localhost:${port}`,
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
    },
    stdio: ['ignore', captureOutput ? 'pipe' : 'ignore', captureOutput ? 'pipe' : 'inherit'],
  });
  let output = '';
  let log = '';
  child.stdout?.setEncoding('utf8').on('data', (text: string) => {
    output += text;
    log += text;
  });
  child.stderr?.setEncoding('utf8').on('data', (text: string) => (output += text));
  // 'close', not 'exit': the last words on stdout and stderr may arrive after the process ended.
  const closed = new Promise<void>((resolve) => child.once('close', () => resolve()));
  return { child, output: () => output, logs: () => parseLog(log), closed };
}

function parseLog(text: string): Record<string, unknown>[] {
  return text.split('\n').flatMap((line) => {
    if (!line.startsWith('{')) return [];
    try {
      return [JSON.parse(line) as Record<string, unknown>];
    } catch {
      return []; // a line still being written
    }
  });
}

/** Whether the server answers `/` with a 2xx. */
async function answers(url: string): Promise<boolean> {
  try {
    const response = await fetch(`${url}/`, { signal: AbortSignal.timeout(5_000) });
    await response.body?.cancel();
    return response.ok;
  } catch {
    return false; // not listening yet
  }
}

/** Starts the server and resolves once it answers `/`; kills it and rejects, with its output, when it does not. */
export async function startServerProcess(options: ServerProcessOptions = {}): Promise<ServerProcess> {
  const { startupTimeoutMs = DEFAULT_STARTUP_TIMEOUT_MS } = options;
  const port = options.port ?? (await freePort());
  const url = `http://127.0.0.1:${port}`;
  const { child, output, logs, closed } = launch(port, options);
  const running = () => child.exitCode === null && child.signalCode === null;
  const stop = async (signal: NodeJS.Signals = 'SIGTERM') => {
    if (running()) child.kill(signal);
    await closed;
  };
  const deadline = Date.now() + startupTimeoutMs;
  while (!(await answers(url))) {
    if (!running()) {
      await closed;
      throw new Error(`The server exited (code ${child.exitCode}) before serving:\n${output()}`);
    }
    if (Date.now() > deadline) {
      await stop('SIGKILL');
      throw new Error(`The server did not start in ${startupTimeoutMs / 1000} s:\n${output()}`);
    }
    await new Promise((resolve) => setTimeout(resolve, POLL_MS));
  }
  const restart = async () => {
    await stop();
    return startServerProcess(options);
  };
  return { url, child, output, logs, stop, restart };
}

/**
 * Runs the server expecting it to refuse to start (a bad setting, a wrong key): resolves once it has exited, with its
 * exit code and everything it wrote. Killed after the start-up timeout if it does not exit (the code is then null).
 */
export async function runServerProcessToExit(
  options: Omit<ServerProcessOptions, 'captureOutput'> = {},
): Promise<{ code: number | null; output: string }> {
  const { child, output, closed } = launch(await freePort(), { ...options, captureOutput: true });
  const timer = setTimeout(
    () => child.kill('SIGKILL'),
    options.startupTimeoutMs ?? DEFAULT_STARTUP_TIMEOUT_MS,
  );
  await closed;
  clearTimeout(timer);
  return { code: child.exitCode, output: output() };
}
