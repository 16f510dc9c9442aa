// `npm run bench:leads [-- --seconds 10 --connections 10 --store sqlite|postgres --instances 2]`: how many durable form
// submissions per second the real server takes on loopback, and how long each waits. The server runs as its own process
// (as in production) on a throwaway database (a SQLite file, or a throwaway PostgreSQL cluster shared by `--instances`
// servers, then SQLite in the same run for comparison), with a local chat receiver taking the alerts; this process
// drives the JSON endpoint with a fixed number of keep-alive connections, spread over the instances, each sending its
// next submission when the last was answered (as autocannon does): 3 seconds of warm-up (reported apart), then the
// measured run. Ends with one line for machines, of the store asked for: `leads_per_s=N p99_ms=N`.
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import Database from 'better-sqlite3';
import pg from 'pg';
import { readArgs, UsageError, wholeNumber } from '../core/cli.ts';
import { startTestPostgres, type TestPostgres } from '../tests/helpers/postgres.ts';
import { startReceiver } from '../tests/helpers/webhook-receiver.ts';
import { startServerProcess, type ServerProcess } from './lib/server-process.ts';
import { percentile } from './lib/stats.ts';

const FORM_ID = 'insurance-verification';
const STARTUP_TIMEOUT_MS = 60_000;
const WARM_UP_SECONDS = 3;

export interface BenchOptions {
  seconds: number;
  connections: number;
  /** Where the servers keep leads: a SQLite file each (one instance), or one throwaway PostgreSQL for all. */
  store: 'sqlite' | 'postgres';
  /** Server processes sharing the connections (PostgreSQL only: a SQLite file takes one). */
  instances: number;
}

const USAGE = 'use --seconds N, --connections N, --store sqlite|postgres and --instances N (postgres)';

export function parseBenchArgs(argv: readonly string[]): BenchOptions {
  const { values } = readArgs(
    argv,
    {
      seconds: { type: 'string' },
      connections: { type: 'string' },
      store: { type: 'string', default: 'sqlite' },
      instances: { type: 'string' },
    },
    { usage: USAGE },
  );
  if (values.store !== 'sqlite' && values.store !== 'postgres')
    throw new UsageError('--store takes sqlite or postgres');
  const options: BenchOptions = {
    seconds: wholeNumber('--seconds', values.seconds, 10, 1, 300),
    connections: wholeNumber('--connections', values.connections, 10, 1, 1000),
    store: values.store,
    instances: wholeNumber('--instances', values.instances, 1, 1, 8),
  };
  if (options.store === 'sqlite' && options.instances !== 1)
    throw new UsageError('--instances needs --store postgres: a SQLite file takes one server');
  return options;
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

/** `connections` keep-alive connections, spread evenly over `urls` (the instances), for `seconds`. */
async function drive(
  urls: readonly URL[],
  { seconds, connections }: Pick<BenchOptions, 'seconds' | 'connections'>,
) {
  const agent = new Agent({ keepAlive: true, maxSockets: connections });
  const templates = urls.map((url) => requestTemplate(agent, url));
  const samples: Sample[] = [];
  const deadline = performance.now() + seconds * 1000;
  let n = 0;
  const loop = async (connection: number) => {
    const template = templates[connection % templates.length] as (typeof templates)[number];
    while (performance.now() < deadline) samples.push(await post(template, lead((n += 1))));
  };
  await Promise.all(Array.from({ length: connections }, (_, connection) => loop(connection)));
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

/** CPU milliseconds of `pid` and its children (PostgreSQL's server and its connections); undefined elsewhere. */
function treeCpuMsOf(pid: number | undefined): number | undefined {
  if (pid === undefined) return undefined;
  let total = cpuMsOf(pid);
  try {
    for (const entry of readdirSync('/proc')) {
      if (!/^\d+$/.test(entry)) continue;
      const fields = readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
      if (Number(fields[1]) === pid) total = (total ?? 0) + (cpuMsOf(Number(entry)) ?? 0);
    }
  } catch {
    return total;
  }
  return total;
}

/** `x ms` per lead, or 'unknown' where /proc cannot tell. */
const perLead = (before: number | undefined, after: number | undefined, leads: number) =>
  before === undefined || after === undefined || leads === 0
    ? 'unknown'
    : `${((after - before) / leads).toFixed(2)} ms`;

interface Figures {
  label: string;
  perSecond: number;
  p99: number;
  cpuPerLead: string;
}

/** Server processes started so far: an interrupted benchmark (Ctrl-C, a time limit) must not leave one behind. */
const children = new Set<ServerProcess['child']>();

/** One measured run of `options.instances` servers on `options.store`; prints its figures and returns them. */
async function runStore(options: BenchOptions, postgres: TestPostgres | undefined): Promise<Figures> {
  const dir = mkdtempSync(join(tmpdir(), 'bench-leads-'));
  const clientDir = join(dir, 'client');
  mkdirSync(clientDir);
  writeFileSync(join(clientDir, 'index.html'), '<!doctype html><title>Bench</title>');
  writeFileSync(join(clientDir, '404.html'), '<!doctype html><title>404</title>');
  const dbFile = join(dir, 'leads.db');
  const label = postgres ? `postgres x${options.instances}` : 'sqlite';
  // Only counted: a long run's alerts are not kept.
  const receiver = await startReceiver(undefined, { record: false });
  const servers: ServerProcess[] = [];
  try {
    for (let n = 0; n < options.instances; n += 1) {
      const server = await startServerProcess({
        env: {
          ...(postgres
            ? { DATABASE_URL: postgres.url, LEADS_ENCRYPTION_KEY: POSTGRES_KEY_HEX }
            : { LEADS_DB: dbFile }),
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
      servers.push(server);
      children.add(server.child);
    }
    const urls = servers.map((server) => new URL(`/api/forms/${FORM_ID}`, server.url));
    console.log(
      `${label}: POST /api/forms/${FORM_ID}: ${options.connections} connections over ${servers.length} ` +
        `instance${servers.length === 1 ? '' : 's'} for ${options.seconds} s ` +
        (postgres ? '(PostgreSQL, fsync on)' : '(WAL, synchronous=FULL)'),
    );
    // The first seconds after a start are slower: V8 is still compiling the hot code and growing its heap. They are
    // driven and reported, but the figures are those of a server that has been running, as one does for days.
    const warmUp = (await drive(urls, { seconds: WARM_UP_SECONDS, connections: options.connections }))
      .filter((sample) => sample.status === 201)
      .map((sample) => sample.ms)
      .sort((a, b) => a - b);
    // The store's cost is the servers' CPU, and PostgreSQL's own (its server and connections) where it is one.
    const sum = (parts: (number | undefined)[]) =>
      parts.some((part) => part === undefined)
        ? undefined
        : parts.reduce((total = 0, part = 0) => total + part, 0);
    const serversCpu = () => sum(servers.map((server) => cpuMsOf(server.child.pid)));
    const databaseCpu = () => (postgres ? treeCpuMsOf(postgres.pid()) : 0);
    const [serversBefore, databaseBefore] = [serversCpu(), databaseCpu()];
    const walBefore = postgres && (await postgresCounts(postgres.url));
    const clientCpuBefore = process.cpuUsage();
    const samples = await drive(urls, options);
    const [serversAfter, databaseAfter] = [serversCpu(), databaseCpu()];
    const clientCpu = process.cpuUsage(clientCpuBefore);
    const created = samples.filter((sample) => sample.status === 201);
    const failed = samples.length - created.length;
    const latencies = created.map((sample) => sample.ms).sort((a, b) => a - b);
    const perSecond = Math.round(created.length / options.seconds);
    const p50 = round(percentile(latencies, 0.5));
    const p99 = round(percentile(latencies, 0.99));
    const stored = postgres ? await countPostgresLeads(postgres.url) : countSqliteLeads(dbFile);
    const cpuPerLead = perLead(
      sum([serversBefore, databaseBefore]),
      sum([serversAfter, databaseAfter]),
      created.length,
    );

    console.log(`answered 201: ${created.length}, other answers or errors: ${failed}`);
    console.log(`leads in the database (warm-up included): ${stored}`);
    console.log(`chat alerts delivered meanwhile: ${receiver.received()}`);
    console.log(`durable submissions per second: ${perSecond}`);
    console.log(
      `CPU per answered lead: ${postgres ? 'servers and PostgreSQL' : 'server (all its threads)'} ${cpuPerLead}, ` +
        `this client ${perLead(0, (clientCpu.user + clientCpu.system) / 1000, created.length)}`,
    );
    if (postgres && walBefore) {
      const walAfter = await postgresCounts(postgres.url);
      const each = (name: keyof typeof walAfter) =>
        ((walAfter[name] - walBefore[name]) / created.length).toFixed(2);
      console.log(
        `of which servers ${perLead(serversBefore, serversAfter, created.length)}, ` +
          `PostgreSQL ${perLead(databaseBefore, databaseAfter, created.length)}; per lead, PostgreSQL counted ` +
          `${each('commits')} commits and ${each('syncs')} WAL syncs (fsync) (its statistics lag by up to a second)`,
      );
    }
    console.log(
      `warm-up (the first ${WARM_UP_SECONDS} s after start, not counted): ${warmUp.length} leads, ` +
        `p50 ${round(percentile(warmUp, 0.5))} ms, p99 ${round(percentile(warmUp, 0.99))} ms`,
    );
    console.log(`latency p50 ${p50} ms, p99 ${p99} ms, max ${round(latencies.at(-1) ?? 0)} ms`);
    return { label, perSecond, p99, cpuPerLead };
  } finally {
    for (const server of servers) {
      await server.stop();
      children.delete(server.child);
    }
    await receiver.stop();
    rmSync(dir, { recursive: true, force: true });
  }
}

const POSTGRES_KEY_HEX = randomBytes(32).toString('hex');

function countSqliteLeads(dbFile: string): number {
  const db = new Database(dbFile, { readonly: true });
  try {
    return (db.prepare('SELECT COUNT(*) AS n FROM leads').get() as { n: number }).n;
  } finally {
    db.close();
  }
}

async function countPostgresLeads(url: string): Promise<number> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query<{ n: number }>('SELECT count(*)::int AS n FROM leads')).rows[0]?.n ?? 0;
  } finally {
    await client.end();
  }
}

/** Transactions committed in the database, and WAL syncs to disk of the whole cluster, so far. */
async function postgresCounts(url: string): Promise<{ commits: number; syncs: number }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const { rows } = await client.query<{ commits: string; syncs: string }>(
      `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database()) AS commits,
              (SELECT wal_sync FROM pg_stat_wal) AS syncs`,
    );
    return { commits: Number(rows[0]?.commits), syncs: Number(rows[0]?.syncs) };
  } finally {
    await client.end();
  }
}

async function main(): Promise<void> {
  const options = parseBenchArgs(process.argv.slice(2));
  const postgres = options.store === 'postgres' ? await startTestPostgres() : undefined;
  for (const signal of ['SIGINT', 'SIGTERM'] as const)
    process.once(signal, () => {
      for (const child of children) child.kill('SIGKILL');
      postgres?.remove();
      process.exit(130);
    });
  try {
    const runs = [await runStore(options, postgres)];
    // Beside PostgreSQL, SQLite's figure from the same run on the same machine: the two compare only so.
    if (postgres) runs.push(await runStore({ ...options, store: 'sqlite', instances: 1 }, undefined));
    if (runs.length > 1)
      for (const run of runs)
        console.log(
          `${run.label}: ${run.perSecond} leads/s, p99 ${run.p99} ms, CPU ${run.cpuPerLead} per lead`,
        );
    const [chosen] = runs as [Figures];
    console.log(`leads_per_s=${chosen.perSecond} p99_ms=${chosen.p99}`);
  } finally {
    postgres?.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
