// `npm run bench:pg-parts [-- N]`: what each part of a lead's work costs the PostgreSQL store alone, without HTTP: the
// lead's write, its two rate-limit counts, and its alert's bookkeeping (claimed in a round, delivered, next due). Each
// is run for N leads (1,500 by default) from 10 concurrent loops after a warm-up of as many, on a throwaway cluster
// (fsync on), and reported per lead: CPU (this process, and PostgreSQL's server with its connections), and the commits
// and WAL syncs PostgreSQL counted. Complements `npm run bench:leads`, which gives the sum through the real server.
import { randomBytes, randomUUID } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import pg from 'pg';
import { ROUND_SIZE } from '../server/alerts/alert-worker.ts';
import { loadForms } from '../server/content.ts';
import { openPostgresLeadStore } from '../server/store/postgres/pg-lead-store.ts';
import { startTestPostgres } from '../tests/helpers/postgres.ts';
import { readArgs, UsageError, wholeNumber } from '../core/cli.ts';

const LOOPS = 10;
// PostgreSQL reports its statistics at most once a second: waited for before and after each count.
const STATS_LAG_MS = 1100;

/** CPU ms of `pid` and of its children (PostgreSQL's connections), from Linux's /proc (ticks of 10 ms). */
function treeCpuMs(pid: number | undefined): number {
  const of = (entry: string) => {
    try {
      return readFileSync(`/proc/${entry}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    } catch {
      return [];
    }
  };
  const ticks = (fields: string[]) => (Number(fields[11]) || 0) + (Number(fields[12]) || 0);
  let total = ticks(of(String(pid)));
  for (const entry of readdirSync('/proc'))
    if (/^\d+$/.test(entry) && Number(of(entry)[1]) === pid) total += ticks(of(entry));
  return total * 10;
}

async function main(): Promise<void> {
  const { positionals } = readArgs(process.argv.slice(2), {}, { positionals: true });
  if (positionals.length > 1) throw new UsageError('takes one N, the leads to write');
  const count = wholeNumber('N', positionals[0], 1500, 1, 100_000);
  const cluster = await startTestPostgres();
  const store = await openPostgresLeadStore(cluster.url, { key: randomBytes(32), forms: loadForms() });
  const admin = new pg.Client({ connectionString: cluster.url });
  await admin.connect();
  const counts = async () =>
    (
      await admin.query<{ commits: number; syncs: number }>(
        `SELECT (SELECT xact_commit FROM pg_stat_database WHERE datname = current_database())::int AS commits,
                (SELECT wal_sync FROM pg_stat_wal)::int AS syncs`,
      )
    ).rows[0] ?? { commits: 0, syncs: 0 };
  const pause = () => new Promise((resolve) => setTimeout(resolve, STATS_LAG_MS));

  /** Runs `one` until `count` leads are done, `perCall` leads a call, and prints the figures per lead. */
  async function measure(label: string, one: () => Promise<unknown>, perCall = 1): Promise<void> {
    let started = 0;
    const run = () =>
      Promise.all(
        Array.from({ length: LOOPS }, async () => {
          while (started < count) {
            started += perCall;
            await one();
          }
        }),
      );
    await run();
    started = 0;
    await pause();
    const [before, ownBefore, dbBefore, t0] = [
      await counts(),
      process.cpuUsage(),
      treeCpuMs(cluster.pid()),
      performance.now(),
    ];
    await run();
    const [ms, own, db] = [
      performance.now() - t0,
      process.cpuUsage(ownBefore),
      treeCpuMs(cluster.pid()) - dbBefore,
    ];
    await pause();
    const after = await counts();
    const each = (value: number) => (value / count).toFixed(2);
    console.log(
      `${label}: ${Math.round((count / ms) * 1000)}/s; CPU per lead: this process ${each((own.user + own.system) / 1000)} ms, ` +
        `PostgreSQL ${each(db)} ms; ${each(after.commits - before.commits)} commits and ` +
        `${each(after.syncs - before.syncs)} WAL syncs per lead`,
    );
  }

  try {
    const fields = { fullName: 'Bench Person', phone: '(555) 010-4477', memberId: 'BENCH-1' };
    await measure('a lead written (its own key)', () =>
      store.insertLead(
        { formId: 'insurance-verification', source: '/insurance', fields, idempotencyKey: randomUUID() },
        { deadline: Date.now() + 8000 },
      ),
    );
    const perAddress = store.rateCounters({ name: 'form', points: 1e9, duration: 600 });
    const siteWide = store.rateCounters({ name: 'form-site', points: 1e9, duration: 600 });
    // Each lead from an address of its own, as visitors' are; the site-wide count is every lead's. Both at once, as
    // the form limit takes them (server/forms/form-rate-limit.ts).
    await measure('its two rate-limit counts', () =>
      Promise.all([perAddress.consume(randomUUID()), siteWide.consume('site')]),
    );
    // As the alert worker does with a backlog (server/alerts/alert-worker.ts): a round claimed, delivered in one
    // write, then the next due asked.
    await measure(
      `its alert, in rounds of ${ROUND_SIZE}: claimed, marked delivered, next due asked`,
      async () => {
        const round = await store.claimDueAlerts({ now: Date.now(), limit: ROUND_SIZE, leaseMs: 60_000 });
        await store.markDelivered(
          round.map((alert) => alert.lead.id),
          new Date(),
        );
        await store.nextAlertDueAt();
      },
      ROUND_SIZE,
    );
  } finally {
    await admin.end();
    await store.close();
    cluster.remove();
  }
}

if (process.argv[1] && import.meta.url === pathToFileURL(process.argv[1]).href) {
  main().catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : error);
    process.exit(1);
  });
}
