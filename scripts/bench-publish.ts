// npm run bench:publish [-- --pages N]: the cost of a publish, as an operator meets it. The real server runs on the
// real build (dist/: run `npm run build` first) with a throwaway SQLite store; a copy of the site's content (with
// synthetic pages up to N; the site's own 33 by default) gets a new heading on the home page, and
// `npm run content -- publish` runs as its own process while pages are requested without pause. Prints:
//   publish_s  the command, from start to "live on every instance" (goal: 20 s for the site, 90 s for 1,000 pages)
//   swap_ms    from the release stored to the first answer of it (goal: 1 s)
//   p99_during_swap_ms  the 99th percentile of page requests sent from the release stored to 1 s after it was
//              served (goal: 10 ms), and no failed request at all.
// Everything stops by itself: the load ends 1 s after the swap, the publish after STEP_TIMEOUT_MS.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { ROOT } from '../content/paths.ts';
import { copyContent, setHomeHeading } from '../tests/helpers/content-root.ts';
import { spawnScript } from './lib/node-script.ts';
import { startServerProcess } from './lib/server-process.ts';
import { percentile } from './lib/stats.ts';
import { addSyntheticPages, ownPageCount } from './lib/synthetic-pages.ts';

const { values } = parseArgs({ options: { pages: { type: 'string' }, connections: { type: 'string' } } });
const pages = Number(values.pages ?? ownPageCount());
const connections = Number(values.connections ?? 4);
if (!Number.isInteger(pages) || pages < ownPageCount()) {
  console.error(`--pages takes a whole number from the site's own ${ownPageCount()} pages up`);
  process.exit(2);
}
const STEP_TIMEOUT_MS = 10 * 60 * 1000;
const MARKER = 'Benchmark marker: help is one call away';
const GOALS = { publishS: pages > 100 ? 90 : 20, swapMs: 1000, p99Ms: 10 };

const dir = mkdtempSync(join(tmpdir(), 'bench-publish-'));
const env = { LEADS_DB: join(dir, 'leads.db'), CLIENT_DIR: join(ROOT, 'dist', 'client'), LOG_LEVEL: 'warn' };
const server = await startServerProcess({ env });
try {
  const root = copyContent(join(dir, 'content'));
  addSyntheticPages(root, pages);
  setHomeHeading(root, MARKER);
  const paths = ['/', '/services/medical-detox', '/insurance-verification', '/crisis/emergency-help'];

  // The load: `connections` loops, each sending the next request when the last is answered.
  const requests: { sentAt: number; ms: number; ok: boolean }[] = [];
  let servedAt = 0;
  let stopAt = Infinity;
  const load = Array.from({ length: connections }, async (_, n) => {
    for (let i = n; performance.now() < stopAt; i += connections) {
      const path = paths[i % paths.length]!;
      const sentAt = performance.now();
      let ok = false;
      try {
        const response = await fetch(server.url + path);
        const body = await response.text();
        ok = response.status === 200 && body.trimEnd().endsWith('</html>');
        if (path === '/' && body.includes(MARKER) && !servedAt) {
          servedAt = performance.now();
          stopAt = servedAt + 1000;
        }
      } catch {
        ok = false;
      }
      requests.push({ sentAt, ms: performance.now() - sentAt, ok });
    }
  });

  const started = performance.now();
  let storedAt = 0;
  const publish = spawnScript('server/cli/content.ts', ['publish'], {
    cwd: root,
    env: { ...process.env, ...env },
    timeout: STEP_TIMEOUT_MS,
  });
  let output = '';
  publish.stdout.setEncoding('utf8').on('data', (text: string) => (output += text));
  publish.stderr.setEncoding('utf8').on('data', (text: string) => {
    output += text;
    if (!storedAt && text.includes('Stored release')) storedAt = performance.now();
  });
  const code = await new Promise<number | null>((resolve) => publish.once('close', resolve));
  const publishS = (performance.now() - started) / 1000;
  if (!servedAt) stopAt = performance.now() + 2000; // never served: stop the load anyway
  await Promise.all(load);
  if (code !== 0 || !storedAt || !servedAt) {
    console.error(output);
    throw new Error(`the publish failed (exit code ${code}) or its release was never served`);
  }

  const during = requests.filter(
    (request) => request.sentAt >= storedAt && request.sentAt <= servedAt + 1000,
  );
  const failed = requests.filter((request) => !request.ok).length;
  const swapMs = servedAt - storedAt;
  const p99 = percentile(
    during.map((request) => request.ms).sort((a, b) => a - b),
    0.99,
  );
  // The same load while the publish builds (before it stored anything): what the machine gives without a swap.
  const building = requests.filter((request) => request.sentAt < storedAt).map((request) => request.ms);
  const p99Building = percentile(
    building.sort((a, b) => a - b),
    0.99,
  );
  const verdict = (value: number, goal: number) => (value <= goal ? 'met' : 'NOT MET');
  console.log(output.trim().split('\n').at(-1));
  console.log(
    `${pages} pages; ${requests.length} page requests, ${during.length} during the swap, ${failed} failed`,
  );
  console.log(`p99 of the requests while the publish built, before the swap: ${p99Building.toFixed(1)} ms`);
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
