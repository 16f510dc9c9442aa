// Every benchmark, once, at its smallest size: proof that each still runs to its last line, so none breaks unseen.
// Their figures are printed for the record, never asserted (a loaded CI machine says nothing about speed); the goals
// are the benchmarks' own, run at full size by hand (README, "Scripts").
import { spawn } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../content/paths.ts';

interface Bench {
  script: string;
  args?: string[];
  env?: Record<string, string>;
  /** The benchmark's closing line, for machines: its figures by name. */
  last: RegExp;
}

const BENCHMARKS: Bench[] = [
  // One synthetic page past the site's own: the smallest site that still proves the generator and a whole build.
  { script: 'bench:build', env: { BENCH_PAGES: '34' }, last: /^pages=34 seconds=[\d.]+$/ },
  { script: 'bench:serve', env: { BENCH_SECONDS: '1' }, last: /^ratio=[\d.]+ p99_ms=[\d.]+$/ },
  {
    script: 'bench:leads',
    args: ['--seconds', '1', '--connections', '2'],
    last: /^leads_per_s=\d+ p99_ms=[\d.]+$/,
  },
  { script: 'bench:pg-parts', args: ['20'], last: /^its alert, in rounds of 16: .* per lead$/ },
  { script: 'bench:studio', env: { BENCH_KEYSTROKES: '3' }, last: /^preview_p50_ms=\d+ preview_p95_ms=\d+$/ },
  {
    script: 'bench:publish',
    args: ['--connections', '2'],
    last: /^publish_s=[\d.]+ swap_ms=\d+ p99_during_swap_ms=[\d.]+$/,
  },
  {
    script: 'bench:inbox',
    args: ['--leads', '100', '--requests', '10'],
    last: /^list_p95_ms=[\d.]+ search_p95_ms=[\d.]+ queue_p95_ms=[\d.]+ fanout_p95_ms=[\d.]+$/,
  },
  {
    script: 'first-screen-variants',
    args: ['--runs', '1', '--variants', 'served,hero-only'],
    last: /^floor_ms=\d+ served_ratio=[\d.]+$/,
  },
];

function run(bench: Bench): Promise<{ code: number | null; out: string }> {
  const args = ['run', '--silent', bench.script, ...(bench.args ? ['--', ...bench.args] : [])];
  return new Promise((resolve, reject) => {
    const child = spawn('npm', args, { cwd: ROOT, env: { ...process.env, ...bench.env } });
    let out = '';
    child.stdout.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (out += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, out }));
  });
}

describe('every benchmark at its smallest size', () => {
  for (const bench of BENCHMARKS) {
    it(`npm run ${bench.script} ${bench.args?.join(' ') ?? ''}`.trim(), { timeout: 300_000 }, async () => {
      const { code, out } = await run(bench);
      const lines = out.trimEnd().split('\n');
      console.log(`npm run ${bench.script}:\n${lines.slice(-4).join('\n')}`);
      expect(code, out).toBe(0);
      expect(lines.at(-1)).toMatch(bench.last);
    });
  }
});
