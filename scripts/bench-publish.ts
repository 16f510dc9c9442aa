// npm run bench:publish [-- --pages N]: the cost of a publish, as an operator meets it. The real server runs on the
// real build (dist/: run `npm run build` first) with a throwaway SQLite store; a copy of the site's content (with
// synthetic pages up to N; the site's own 33 by default) gets a new heading on the home page, and
// `npm run content -- publish` runs as its own process while wrk (scripts/lib/wrk.ts) requests four pages in turn on
// `--connections` connections (4 by default). Prints:
//   publish_s  the command, from start to "live on every instance" (goal: 20 s for the site, 90 s for 1,000 pages)
//   swap_ms    from the release stored to the first answer of it (goal: 1 s)
//   p99_during_swap_ms  the 99th percentile of the page requests of the SWAP_WINDOW_S seconds from the release stored:
//              the swap, and a second after it when the swap meets its goal (goal: 10 ms), with no failed request.
// The same load is measured for as long while the publish builds, before it stored anything, to compare.
// Everything stops by itself: each load after its seconds, the watch for the new page after WATCH_MS, the publish after
// STEP_TIMEOUT_MS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../content/paths.ts';
import { copyContent, setHomeHeading } from '../tests/helpers/content-root.ts';
import { spawnScript } from './lib/node-script.ts';
import { startServerProcess } from './lib/server-process.ts';
import { addSyntheticPages, ownPageCount } from './lib/synthetic-pages.ts';
import { requireWrk, wrk } from './lib/wrk.ts';

const { values } = parseArgs({ options: { pages: { type: 'string' }, connections: { type: 'string' } } });
const pages = Number(values.pages ?? ownPageCount());
const connections = Number(values.connections ?? 4);
if (!Number.isInteger(pages) || pages < ownPageCount()) {
  console.error(`--pages takes a whole number from the site's own ${ownPageCount()} pages up`);
  process.exit(2);
}
const STEP_TIMEOUT_MS = 10 * 60 * 1000;
const SWAP_WINDOW_S = 2;
const WATCH_MS = 10_000;
const MARKER = 'Benchmark marker: help is one call away';
const GOALS = { publishS: pages > 100 ? 90 : 20, swapMs: 1000, p99Ms: 10 };

requireWrk();
const dir = mkdtempSync(join(tmpdir(), 'bench-publish-'));
const env = { LEADS_DB: join(dir, 'leads.db'), CLIENT_DIR: join(ROOT, 'dist', 'client'), LOG_LEVEL: 'warn' };
const server = await startServerProcess({ env });
try {
  const root = copyContent(join(dir, 'content'));
  addSyntheticPages(root, pages);
  setHomeHeading(root, MARKER);
  const paths = ['/', '/services/medical-detox', '/insurance-verification', '/crisis/emergency-help'];

  const started = performance.now();
  let storedAt = 0;
  let stored = () => {};
  const storing = new Promise<void>((resolve) => (stored = resolve));
  const publish = spawnScript('server/cli/content.ts', ['publish'], {
    cwd: root,
    env: { ...process.env, ...env },
    timeout: STEP_TIMEOUT_MS,
  });
  let output = '';
  publish.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  publish.stderr.setEncoding('utf8').on('data', (text: string) => {
    output += text;
    if (!storedAt && text.includes('Stored release')) {
      storedAt = performance.now();
      stored();
    }
  });
  const closed = new Promise<number | null>((resolve) => publish.once('close', resolve));

  // While the publish builds: what the machine gives this load without a swap.
  const building = await wrk(server.url, { connections, seconds: SWAP_WINDOW_S, paths });
  const lateBy = storedAt ? performance.now() - storedAt : 0;
  await Promise.race([storing, closed]);
  // From the release stored: the load, and a watch for the first answer of the new page (each answer read whole).
  let servedAt = 0;
  let failedWatch = 0;
  const watch = async () => {
    while (!servedAt && performance.now() - storedAt < WATCH_MS) {
      const response = await fetch(`${server.url}/`).catch(() => undefined);
      const body = (await response?.text().catch(() => '')) ?? '';
      if (response?.status !== 200 || !body.trimEnd().endsWith('</html>')) failedWatch += 1;
      else if (body.includes(MARKER)) servedAt = performance.now();
      await new Promise((resolve) => setTimeout(resolve, 5));
    }
  };
  const [during] = storedAt
    ? await Promise.all([wrk(server.url, { connections, seconds: SWAP_WINDOW_S, paths }), watch()])
    : [undefined];
  const code = await closed;
  const publishS = (performance.now() - started) / 1000;
  if (code !== 0 || !during || !servedAt) {
    console.error(output);
    throw new Error(`the publish failed (exit code ${code}) or its release was never served`);
  }

  const swapMs = servedAt - storedAt;
  const failed = during.errors + building.errors + failedWatch;
  const p99 = during.p99;
  const verdict = (value: number, goal: number) => (value <= goal ? 'met' : 'NOT MET');
  console.log(output.trim().split('\n').at(-1));
  console.log(
    `${pages} pages; ${connections} connections; ${during.requests} page requests in the ${SWAP_WINDOW_S} s from the ` +
      `release stored, ${building.requests} while it built; ${failed} failed`,
  );
  if (lateBy)
    console.log(`(the release was stored ${Math.round(lateBy)} ms before the load on the swap began)`);
  console.log(`p99 of the requests while the publish built, before the swap: ${building.p99.toFixed(1)} ms`);
  if (swapMs > (SWAP_WINDOW_S - 1) * 1000)
    console.log(
      `(the swap took longer than its goal: the load ended ${Math.round(SWAP_WINDOW_S * 1000 - swapMs)} ms after it)`,
    );
  console.log(`goal publish_s <= ${GOALS.publishS}: ${verdict(publishS, GOALS.publishS)}`);
  console.log(`goal swap_ms <= ${GOALS.swapMs}: ${verdict(swapMs, GOALS.swapMs)}`);
  console.log(
    `goal p99_during_swap_ms <= ${GOALS.p99Ms} with no failed request: ${failed ? 'NOT MET' : verdict(p99, GOALS.p99Ms)}`,
  );
  if (failed) process.exitCode = 1;
  console.log(
    `publish_s=${publishS.toFixed(1)} swap_ms=${Math.round(swapMs)} p99_during_swap_ms=${p99.toFixed(1)}`,
  );
} finally {
  await server.stop();
  rmSync(dir, { recursive: true, force: true });
}
