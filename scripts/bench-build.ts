// npm run bench:build: build cost at scale. A copy of the project gets N synthetic pages composed from every
// block's valid example (on top of the real pages), then validation and the full build are timed, at two sizes,
// to show that cost grows linearly. Ends with `pages=N seconds=S` for the largest size.
import { execFileSync } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ROOT, blockTypes } from './lib/content-schemas.ts';

const SIZES = (process.env.BENCH_PAGES ?? '250,1000').split(',').map(Number);
const COPY = [
  'blocks',
  'schemas',
  'scripts',
  'generated',
  'renderer',
  'site',
  'pages',
  'server',
  'public',
  'tests',
  'package.json',
  'tsconfig.json',
  'vite.config.ts',
];

const examples = blockTypes().map(
  (type) =>
    JSON.parse(readFileSync(join(ROOT, 'blocks', type, 'example.json'), 'utf8')) as Record<string, unknown>,
);

function syntheticPage(n: number): string {
  const hero = examples.find((block) => block.type === 'hero');
  const rest = examples.filter((block) => block.type !== 'hero');
  return JSON.stringify({
    $schema: '../../schemas/page.schema.json',
    title: `Synthetic Benchmark Page ${n} | Coastline Recovery`,
    name: `Benchmark ${n}`,
    description: `A synthetic page number ${n}, composed from every block's example, used only to measure build cost.`,
    keywords: ['benchmark'],
    sitemap: { changefreq: 'yearly', priority: 0.3 },
    blocks: [hero, ...rest].map((block) => ({ ...block, id: undefined, aliases: undefined })),
  });
}

function timed(label: string, cwd: string, command: string, args: string[]): number {
  const start = process.hrtime.bigint();
  execFileSync(command, args, {
    cwd,
    stdio: ['ignore', 'ignore', 'inherit'],
    env: { ...process.env, NODE_ENV: 'production' },
  });
  const seconds = Number(process.hrtime.bigint() - start) / 1e9;
  console.log(`  ${label.padEnd(10)} ${seconds.toFixed(2)} s`);
  return seconds;
}

const results: { pages: number; validate: number; build: number }[] = [];
for (const size of SIZES) {
  const dir = mkdtempSync(join(tmpdir(), 'bench-build-'));
  try {
    for (const part of COPY) cpSync(join(ROOT, part), join(dir, part), { recursive: true });
    symlinkSync(join(ROOT, 'node_modules'), join(dir, 'node_modules'), 'dir');
    mkdirSync(join(dir, 'pages', 'bench'), { recursive: true });
    for (let n = 1; n <= size; n++)
      writeFileSync(join(dir, 'pages', 'bench', `page-${n}.json`), syntheticPage(n));
    console.log(`${size} synthetic pages (plus the site's own):`);
    const tsx = join(ROOT, 'node_modules', '.bin', 'tsx');
    const validate = timed('validate', dir, tsx, ['scripts/validate.ts']);
    const build = timed('build', dir, tsx, ['scripts/build.ts']);
    results.push({ pages: size, validate, build });
    console.log(`  per page   ${((build / size) * 1000).toFixed(1)} ms`);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}
if (results.length > 1) {
  const [small, large] = [results[0]!, results.at(-1)!];
  const growth = (large.build - small.build) / (large.pages - small.pages);
  console.log(
    `marginal cost ${(growth * 1000).toFixed(1)} ms per added page (${small.pages} -> ${large.pages} pages)`,
  );
}
const last = results.at(-1)!;
console.log(
  `pages=${last.pages} seconds=${last.build.toFixed(1)} validate_seconds=${last.validate.toFixed(2)}`,
);
