// `npm run bench:leads [-- --seconds 10 --connections 10]`: how many durable form submissions per second the real
// server takes on loopback, and how long each waits. The server runs as its own process (as in production) on a
// throwaway database, with a local chat receiver taking the alerts; this process drives the JSON endpoint with a fixed
// number of keep-alive connections, each sending its next submission when the last was answered (as autocannon does):
// 3 seconds of warm-up (reported apart), then the measured run. Ends with one line for machines:
// `leads_per_s=N p99_ms=N`.
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, createServer, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import { startServerProcess } from './lib/server-process.ts';
import { percentile } from './lib/stats.ts';

const FORM_ID = 'insurance-verification';
const STARTUP_TIMEOUT_MS = 60_000;
const WARM_UP_SECONDS = 3;

export interface BenchOptions {
  seconds: number;
  connections: number;
}

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const options: BenchOptions = { seconds: 10, connections: 10 };
  for (let i = 0; i < argv.length; i += 1) {
    const name = argv[i];
    const value = Number(argv[i + 1]);
    const limits = { '--seconds': [1, 300], '--connections': [1, 1000] } as const;
    if (name !== '--seconds' && name !== '--connections')
      throw new Error(`unknown option ${name}; use --seconds N and --connections N`);
    const [min, max] = limits[name];
    if (!Number.isInteger(value) || value < min || value > max)
      throw new Error(`${name} takes a whole number from ${min} to ${max}`);
    options[name === '--seconds' ? 'seconds' : 'connections'] = value;
    i += 1;
  }
  return options;
}

/** Counts alerts as a Slack webhook would take them. */
async function startReceiver(): Promise<{ url: string; received: () => number; stop: () => Promise<void> }> {
  let received = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      received += 1;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/services/bench`,
    received: () => received,
    stop: () => {
      server.closeAllConnections();
      return new Promise((resolve) => server.close(() => resolve()));
    },
  };
}

const lead = (n: number) =>
  JSON.stringify({
    fullName: `Bench Person ${n}`,
    phone: '(555) 010-4477',
    dateOfBirth: '1987-03-14',
    insuranceProvider: 'aetna',
    memberId: `BENCH-${n}`,
    source: '/insurance',
  });

interface Sample {
  ms: number;
  status: number;
}

/**
 * Everything about a request that is the same each time, made once: the client shares the machine with the server, so
 * what it spends per request (parsing a URL, checking each header as it is set) is taken from the server's share.
 */
function requestTemplate(agent: Agent, url: URL) {
  return {
    options: { agent, host: url.hostname, port: url.port, path: url.pathname, method: 'POST' },
    // Name and value pairs are sent as they are, so they carry Host too; Connection: keep-alive comes from the agent.
    headers: ['Host', url.host, 'Content-Type', 'application/json', 'Origin', url.origin],
  };
}

function post({ options, headers }: ReturnType<typeof requestTemplate>, body: string): Promise<Sample> {
  const started = performance.now();
  return new Promise((resolve) => {
    const req = request(
      {
        ...options,
        headers: [
          ...headers,
          'Content-Length',
          String(Buffer.byteLength(body)),
          'Idempotency-Key',
          randomUUID(),
        ],
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve({ ms: performance.now() - started, status: res.statusCode ?? 0 }));
      },
    );
    req.on('error', () => resolve({ ms: performance.now() - started, status: 0 }));
    req.end(body);
  });
}

async function drive(url: URL, { seconds, connections }: BenchOptions): Promise<Sample[]> {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const template = requestTemplate(agent, url);
  const samples: Sample[] = [];
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  const loop = async () => {
    while (performance.now() < deadline) samples.push(await post(template, lead((n += 1))));
  };
  await Promise.all(Array.from({ length: connections }, loop));
  agent.destroy();
  return samples;
}

const round = (ms: number) => Math.round(ms * 10) / 10;

// Clock ticks per second of /proc/<pid>/stat (USER_HZ): 100 on every Linux this runs on.
const USER_HZ = 100;

/**
 * CPU milliseconds the process `pid` (every thread of it) has used so far, from Linux's /proc; undefined elsewhere.
 * On a shared machine the rate follows the other work on it; CPU spent per lead follows it much less, and is what a
 * change to the server moves (compare runs at a similar load all the same).
 */
function cpuMsOf(pid: number | undefined): number | undefined {
  try {
    // The fields after the command name (which may hold spaces) start with the state; utime and stime are 12th and 13th.
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    const ticks = Number(fields[11]) + Number(fields[12]);
    return Number.isFinite(ticks) ? (ticks * 1000) / USER_HZ : undefined;
  } catch {
    return undefined;
  }
}

/** `x ms` per lead, or 'unknown' where /proc cannot tell. */
const perLead = (before: number | undefined, after: number | undefined, leads: number) =>
  before === undefined || after === undefined || leads === 0
    ? 'unknown'
    : `${((after - before) / leads).toFixed(2)} ms`;

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  const dir = mkdtempSync(join(tmpdir(), 'bench-leads-'));
  const clientDir = join(dir, 'client');
  mkdirSync(clientDir);
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Bench</title>');
  writeFileSync(join(clientDir, '404.html'), '<!doctype html><title>404</title>');
  const dbFile = join(dir, 'leads.db');
  const receiver = await startReceiver();
  const server = await startServerProcess({
    env: {
      LEADS_DB: dbFile,
      CLIENT_DIR: clientDir,
      CHAT_WEBHOOK_URL: receiver.url,
      // One address sends every request here; the limits guard against people, not against the benchmark.
      FORM_RATE_LIMIT: '1000000000',
      FORM_GLOBAL_RATE_LIMIT: '1000000000',
      LOG_LEVEL: process.env.LOG_LEVEL ?? 'info',
    },
    // BENCH_SERVER_NODE_FLAGS adds Node flags to the server only, such as `--cpu-prof --cpu-prof-dir=/tmp/prof` to
    // see where its time goes (NODE_OPTIONS refuses --cpu-prof, and would profile this client too).
    nodeFlags: (process.env.BENCH_SERVER_NODE_FLAGS ?? '').split(/\s+/).filter(Boolean),
    // The server's log is not the benchmark's output; discarding it still costs the server its writes, as in
    // production.
    captureOutput: false,
    startupTimeoutMs: STARTUP_TIMEOUT_MS,
  });
  const { child, url } = server;
  // Interrupted (Ctrl-C, a time limit): the server child must not outlive the benchmark.
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
      process.exit(130);
    });
  try {
    console.log(
      `POST ${url}/api/forms/${FORM_ID}: ${options.connections} connections for ${options.seconds} s (WAL, synchronous=FULL)`,
    );
    // The first seconds after a start are slower: V8 is still compiling the hot code and growing its heap. They are
    // driven and reported, but the figures are those of a server that has been running, as one does for days.
    const warmUp = (
      await drive(new URL(`/api/forms/${FORM_ID}`, url), {
        seconds: WARM_UP_SECONDS,
        connections: options.connections,
      })
    )
      .filter((sample) => sample.status === 201)
      .map((sample) => sample.ms)
      .sort((a, b) => a - b);
    const serverCpuBefore = cpuMsOf(child.pid);
    const clientCpuBefore = process.cpuUsage();
    const samples = await drive(new URL(`/api/forms/${FORM_ID}`, url), options);
    const serverCpuAfter = cpuMsOf(child.pid);
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const created = samples.filter((sample) => sample.status === 201);
    const failed = samples.length - created.length;
    const latencies = created.map((sample) => sample.ms).sort((a, b) => a - b);
    const perSecond = Math.round(created.length / options.seconds);
    const p50 = round(percentile(latencies, 0.5));
    const p99 = round(percentile(latencies, 0.99));

    const db = new Database(dbFile, { readonly: true });
    const stored = (db.prepare('SELECT COUNT(*) AS n FROM leads').get() as { n: number }).n;
    db.close();

    console.log(`answered 201: ${created.length}, other answers or errors: ${failed}`);
    console.log(`leads in the database (warm-up included): ${stored}`);
    console.log(`chat alerts delivered meanwhile: ${receiver.received()}`);
    console.log(`durable submissions per second: ${perSecond}`);
    console.log(
      `CPU per answered lead: server ${perLead(serverCpuBefore, serverCpuAfter, created.length)} (all its threads), ` +
        `this client ${perLead(0, (clientCpu.user + clientCpu.system) / 1000, created.length)}`,
    );
    console.log(
      `warm-up (the first ${WARM_UP_SECONDS} s after start, not counted): ${warmUp.length} leads, ` +
        `p50 ${round(percentile(warmUp, 0.5))} ms, p99 ${round(percentile(warmUp, 0.99))} ms`,
    );
    console.log(`latency p50 ${p50} ms, p99 ${p99} ms, max ${round(latencies.at(-1) ?? 0)} ms`);
    console.log(`leads_per_s=${perSecond} p99_ms=${p99}`);
  } finally {
    await server.stop();
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
