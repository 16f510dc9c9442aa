// npm run bench:build: build cost at scale. A temporary copy of the project becomes a site of N pages (its own
// pages plus synthetic ones composed from every block's valid example), then `npm run validate` and the full
// `npm run build` are timed, at each size in BENCH_PAGES (default 250 and 1000), to show that cost grows
// linearly. Ends with `pages=N seconds=S` for the largest size. The copies are removed, even after a failure
// or Ctrl-C.
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { documentValidators } from '../content/schemas.ts';
import { copyProject } from './lib/project-copy.ts';
import { addSyntheticPages, ownPageCount } from './lib/synthetic-pages.ts';

const SIZES = (process.env.BENCH_PAGES ?? '250,1000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
/** A step that takes longer than this is stuck, not slow: the benchmark stops rather than wait forever. */
const STEP_TIMEOUT_MINUTES = 30;
const ownPages = ownPageCount();
const invalid = SIZES.filter((size) => !Number.isInteger(size) || size <= ownPages);
if (invalid.length) {
  console.error(`BENCH_PAGES: each size must be a whole number above the site's own ${ownPages} pages`);
  process.exit(1);
}

let running: ChildProcess | undefined;
let interrupted: NodeJS.Signals | undefined;

/**
 * Seconds `npm run <script>` takes in `cwd`, npm's and Node's start-up included, as a person would wait. Its
 * output is shown only when it fails (a successful validate prints the real pages' SEO warnings).
 */
function timed(cwd: string, script: string): Promise<{ seconds: number; output: string }> {
  const start = process.hrtime.bigint();
  const child = spawn('npm', ['run', '--silent', script], {
    cwd,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, NODE_ENV: 'production' },
    timeout: STEP_TIMEOUT_MINUTES * 60 * 1000,
  });
  running = child;
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
  return new Promise((resolve, reject) => {
    child.on('error', reject);
    child.on('close', (code, signal) => {
      running = undefined;
      const seconds = Number(process.hrtime.bigint() - start) / 1e9;
      if (code === 0) return resolve({ seconds, output });
      process.stderr.write(output);
      const why =
        seconds >= STEP_TIMEOUT_MINUTES * 60
          ? `stopped after ${STEP_TIMEOUT_MINUTES} minutes`
          : (signal ?? `exit code ${code}`);
      reject(new Error(`npm run ${script} failed (${why})`));
    });
  });
}

const load = () =>
  loadavg()
    .map((n) => n.toFixed(2))
    .join(' ');

// Asynchronous steps keep this process able to react to Ctrl-C: the step is stopped, then its copy removed.
for (const signal of ['SIGINT', 'SIGTERM'] as const)
  process.on(signal, () => {
    interrupted = signal;
    running?.kill(signal);
  });

// Says so when generated/validators.cjs is stale, which would make validation look a second slower.
documentValidators();
console.log(`load average before: ${load()} (1, 5, 15 min) on a shared machine; figures vary with it`);
const results: { pages: number; validate: number; build: number }[] = [];
for (const pages of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-build-'));
  try {
    copyProject(dir);
    addSyntheticPages(dir, pages);
    console.log(`${pages} pages (${ownPages} of the site's own, ${pages - ownPages} synthetic):`);
    const { seconds: validate } = await timed(dir, 'validate');
    console.log(
      `  validate  ${validate.toFixed(2)} s  (npm run validate: start-up, validators, every document, SEO lint)`,
    );
    const { seconds: build, output } = await timed(dir, 'build');
    console.log(
      `  build     ${build.toFixed(2)} s  ${((build / pages) * 1000).toFixed(1)} ms/page  (npm run build, validation included)`,
    );
    // The build's own timing of each step (scripts/build.ts), to show where the time goes.
    for (const line of output.match(/^[a-z ]+: [\d.]+ s$/gm) ?? []) console.log(`    ${line}`);
    console.log(`  load      ${load()}`);
    results.push({ pages, validate, build });
  } catch (err) {
    console.error(interrupted ? `stopped by ${interrupted}` : String(err));
    process.exitCode = 1;
    break;
  } finally {
    rmSync(dir, { recursive: true, force: true, maxRetries: 5 });
  }
}
if (process.exitCode) process.exit();
// Linear growth: cost = fixed + marginal × pages, with the marginal cost the same between every pair of sizes.
for (let i = 1; i < results.length; i++) {
  const [small, large] = [results[i - 1]!, results[i]!];
  const marginal = (large.build - small.build) / (large.pages - small.pages);
  const fixed = small.build - marginal * small.pages;
  const validateMarginal = (large.validate - small.validate) / (large.pages - small.pages);
  console.log(
    `linearity ${small.pages} -> ${large.pages} pages: build ${(marginal * 1000).toFixed(1)} ms per added page ` +
      `(fixed ${fixed.toFixed(1)} s), validate ${(validateMarginal * 1000).toFixed(2)} ms per added page`,
  );
}
const last = results.at(-1)!;
console.log(`validate_pages=${last.pages} validate_seconds=${last.validate.toFixed(2)}`);
console.log(`pages=${last.pages} seconds=${last.build.toFixed(1)}`);
