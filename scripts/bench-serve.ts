// npm run bench:serve: our production server against nginx (Debian's package, one worker, gzip_static on) on the
// same dist/client, both on loopback, measured with wrk at 50 connections after a warm-up run each. Prints both
// request rates, the ratio and p99 latency, ending with `ratio=N p99_ms=N` (ours / nginx, and our p99).
import { execFileSync, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { freePort } from './lib/server-process.ts';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT } from './lib/content-schemas.ts';

const PATH = process.env.BENCH_PATH ?? '/services/medical-detox';
const SECONDS = Number(process.env.BENCH_SECONDS ?? 10);
const CONNECTIONS = 50;
const WARM_UP_SECONDS = 3;
const CLIENT = join(ROOT, 'dist', 'client');

for (const tool of ['nginx', 'wrk'])
  try {
    execFileSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' });
  } catch {
    console.error(`${tool} is missing: apt-get install nginx-light wrk (Debian packages)`);
    process.exit(1);
  }
if (!existsSync(join(CLIENT, 'index.html'))) {
  console.error('No built site: run `npm run build` first.');
  process.exit(1);
}

async function waitFor(url: string) {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(url)).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  throw new Error(`${url} did not come up`);
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
const [ourPort, nginxPort] = [await freePort(), await freePort()];
writeFileSync(
  join(dir, 'nginx.conf'),
  `worker_processes 1;
pid ${dir}/nginx.pid;
error_log ${dir}/error.log;
events { worker_connections 1024; }
http {
  include /etc/nginx/mime.types;
  access_log off;
  sendfile on;
  gzip_static on;
  server {
    listen 127.0.0.1:${nginxPort};
    root ${CLIENT};
    include ${join(ROOT, 'dist', 'nginx', 'redirects.conf')};
    location / { try_files $uri $uri.html $uri/index.html =404; }
    error_page 404 /404.html;
  }
}
`,
);
const ours = spawn(process.execPath, ['--import', 'tsx', 'server/index.ts'], {
  cwd: ROOT,
  env: {
    ...process.env,
    PORT: String(ourPort),
    HOST: '127.0.0.1',
    LEADS_DB: join(dir, 'leads.db'),
    LOG_LEVEL: 'warn',
    CHAT_WEBHOOK_URL: '',
  },
  stdio: 'ignore',
});
const nginx = spawn('nginx', ['-c', join(dir, 'nginx.conf'), '-g', 'daemon off;'], { stdio: 'ignore' });
try {
  await Promise.all([
    waitFor(`http://127.0.0.1:${ourPort}${PATH}`),
    waitFor(`http://127.0.0.1:${nginxPort}${PATH}`),
  ]);
  console.log(
    `GET ${PATH}, ${CONNECTIONS} connections, ${SECONDS} s each after ${WARM_UP_SECONDS} s of warm-up, ` +
      'Accept-Encoding: br, gzip',
  );
  const n = measure(`http://127.0.0.1:${nginxPort}${PATH}`);
  const o = measure(`http://127.0.0.1:${ourPort}${PATH}`);
  const row = (name: string, r: Result) =>
    console.log(
      `${name.padEnd(8)} ${r.rps.toFixed(0).padStart(8)} req/s   p50 ${r.p50.toFixed(2)} ms   p99 ${r.p99.toFixed(2)} ms`,
    );
  row('nginx', n);
  row('ours', o);
  console.log(`ratio=${(o.rps / n.rps).toFixed(2)} p99_ms=${o.p99.toFixed(2)}`);
} finally {
  ours.kill('SIGTERM');
  nginx.kill('SIGQUIT');
  await new Promise((resolve) => setTimeout(resolve, 300));
  rmSync(dir, { recursive: true, force: true });
}
