// npm run bench:serve: our production server against nginx (Debian's package, one worker, configured by the build's
// dist/nginx/site.conf: gzip_static and the same headers) on the same dist/client, both on loopback, measured with wrk
// at 50 connections after a warm-up run each. Prints both request rates, the ratio and p99 latency, ending with
// `ratio=N p99_ms=N` (ours / nginx, and our p99).
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from '../content/paths.ts';
import { startNginx } from './lib/nginx-process.ts';
import { startServerProcess } from './lib/server-process.ts';
import { requireWrk, wrk, type WrkResult } from './lib/wrk.ts';

const PATH = process.env.BENCH_PATH ?? '/services/medical-detox';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const WARM_UP_SECONDS = 3;
const CLIENT = join(ROOT, 'dist', 'client');

requireWrk();
if (!existsSync(join(CLIENT, 'index.html'))) {
  console.error('No built site: run `npm run build` first.');
  process.exit(1);
}

async function run(url: string, seconds = SECONDS): Promise<WrkResult> {
  const result = await wrk(url, { threads: 2, connections: CONNECTIONS, seconds });
  if (result.errors) throw new Error(`wrk saw errors:\n${result.output}`);
  return result;
}

/**
 * A short run that is not counted, then the measured one: Node compiles its hot code in its first seconds (its p99
 * then is two to three times what it is once running), and both servers fill their caches. A server runs for days.
 */
async function measure(url: string): Promise<WrkResult> {
  await run(url, WARM_UP_SECONDS);
  return run(url);
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
  const n = await measure(`${nginx.url}${PATH}`);
  const o = await measure(`${ours.url}${PATH}`);
  const row = (name: string, r: WrkResult) =>
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
