// wrk (Debian's package), the load of the benchmarks that measure the server's latency: a process of its own, in C, so
// its figures are the server's. A fetch loop inside the benchmark's own Node process measured its own pauses (garbage
// collection, body decoding): 20 ms at the 99th percentile against an idle server that wrk measures at 2 ms.
import { execFile, execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';

export interface WrkOptions {
  connections: number;
  seconds: number;
  threads?: number;
  /** Paths requested in turn (a Lua script rotates them); the origin's own path alone without them. */
  paths?: readonly string[];
}

export interface WrkResult {
  rps: number;
  requests: number;
  /** Milliseconds. */
  p50: number;
  p99: number;
  /** Answers other than 2xx or 3xx, and connect, read, write and timeout errors. */
  errors: number;
  output: string;
}

/** Exits with the package to install when wrk is missing. */
export function requireWrk(): void {
  try {
    execFileSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' });
  } catch {
    console.error('wrk is missing: apt-get install wrk (Debian package)');
    process.exit(1);
  }
}

/** Lua for wrk: each request takes the next of `paths`. */
const rotation = (paths: readonly string[]) =>
  [
    `local paths = { ${paths.map((path) => JSON.stringify(path)).join(', ')} }`,
    'local n = 0',
    'request = function()',
    '  n = n + 1',
    '  return wrk.format(nil, paths[(n % #paths) + 1])',
    'end',
  ].join('\n');

/** wrk's latency percentile `at` ("50", "99") in milliseconds. */
function percentileOf(output: string, at: string): number {
  const match = new RegExp(`^\\s*${at}%\\s+([\\d.]+)(us|ms|s)$`, 'm').exec(output);
  if (!match) throw new Error(`no ${at}% latency in wrk's output:\n${output}`);
  const value = Number(match[1]);
  return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
}

/** Runs wrk against `url` (asking for br or gzip, as browsers do) and reads its figures. */
export async function wrk(url: string, options: WrkOptions): Promise<WrkResult> {
  const dir = options.paths ? mkdtempSync(join(tmpdir(), 'wrk-')) : undefined;
  try {
    const script = dir && join(dir, 'paths.lua');
    if (script && options.paths) writeFileSync(script, rotation(options.paths));
    const { stdout: output } = await promisify(execFile)(
      'wrk',
      [
        `-t${options.threads ?? 1}`,
        `-c${options.connections}`,
        `-d${options.seconds}s`,
        '--latency',
        '-H',
        'Accept-Encoding: br, gzip',
        ...(script ? ['-s', script] : []),
        url,
      ],
      { encoding: 'utf8' },
    );
    const socketErrors = /Socket errors: connect (\d+), read (\d+), write (\d+), timeout (\d+)/.exec(output);
    const errors =
      Number(/Non-2xx or 3xx responses: (\d+)/.exec(output)?.[1] ?? 0) +
      (socketErrors ? socketErrors.slice(1).reduce((sum, count) => sum + Number(count), 0) : 0);
    return {
      rps: Number(/Requests\/sec:\s+([\d.]+)/.exec(output)?.[1]),
      requests: Number(/(\d+) requests in/.exec(output)?.[1]),
      p50: percentileOf(output, '50'),
      p99: percentileOf(output, '99'),
      errors,
      output,
    };
  } finally {
    if (dir) rmSync(dir, { recursive: true, force: true });
  }
}
