// npm run bench:serve: our production server against nginx (Debian's package, one worker, configured by the build's
// dist/nginx/site.conf: gzip_static and the same headers) on the same dist/client, both on loopback, measured with wrk
// at 50 connections after a warm-up run each. Prints both request rates, the ratio and p99 latency, ending with
// `ratio=N p99_ms=N` (ours / nginx, and our p99).
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../content/paths.ts';
import { startNginx } from './lib/nginx-process.ts';
import { startServerProcess } from './lib/server-process.ts';

const PATH = process.env.BENCH_PATH ?? '/services/medical-detox';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const WARM_UP_SECONDS = 3;
const CLIENT = join(ROOT, 'dist', 'client');

try {
  execFileSync('sh', ['-c', 'command -v wrk'], { stdio: 'ignore' });
} catch {
  console.error('wrk is missing: apt-get install wrk (Debian package)');
  process.exit(1);
}
if (!existsSync(join(CLIENT, 'index.html'))) {
  console.error('No built site: run `npm run build` first.');
  process.exit(1);
}

type Result = { rps: number; p50: number; p99: number };
function wrk(url: string, seconds = SECONDS): Result {
  const out = execFileSync(
    'wrk',
    ['-t2', `-c${CONNECTIONS}`, `-d${seconds}s`, '--latency', '-H', 'Accept-Encoding: br, gzip', url],
    { encoding: 'utf8' },
  );
  const ms = (line: string) => {
    const match = new RegExp(`${line}%\\s+([\\d.]+)(us|ms|s)`).exec(out);
    if (!match) throw new Error(`no ${line}% latency in wrk output:\n${out}`);
    const value = Number(match[1]);
    return match[2] === 'us' ? value / 1000 : match[2] === 's' ? value * 1000 : value;
  };
  const rps = Number(/Requests\/sec:\s+([\d.]+)/.exec(out)?.[1]);
  if (/Non-2xx/.test(out)) throw new Error(`wrk saw errors:\n${out}`);
  return { rps, p50: ms('50'), p99: ms('99') };
}

/**
 * A short run that is not counted, then the measured one: Node compiles its hot code in its first seconds (its p99
 * then is two to three times what it is once running), and both servers fill their caches. A server runs for days.
 */
function measure(url: string): Result {
  wrk(url, WARM_UP_SECONDS);
  return wrk(url);
}

const dir = mkdtempSync(join(tmpdir(), 'bench-serve-'));
const ours = await startServerProcess({
  env: { LEADS_DB: join(dir, 'leads.db'), LOG_LEVEL: 'warn' },
  // The benchmark's CPU is the server's: nothing reads its output.
  captureOutput: false,
});
const nginx = await startNginx().catch(async (error: unknown) => {
  await ours.stop();
  throw error;
});
try {
  console.log(
    `GET ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARM_UP_SECONDS} s of warm-up, ` +
      'Accept-Encoding: br, gzip',
  );
  const n = measure(`${nginx.url}${PATH}`);
  const o = measure(`${ours.url}${PATH}`);
  const row = (name: string, r: Result) =>
    console.log(
      `${name.padEnd(8)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`,
    );
  row('nginx', n);
  row('ours', o);
  console.log(`ratio=${(o.rps / n.rps).toFixed(2)} p99_ms=${o.p99.toFixed(2)}`);
} finally {
  await Promise.all([ours.stop(), nginx.stop()]);
  rmSync(dir, { recursive: true, force: true });
}
