// Synthetic pages for the benchmarks that need a large site (bench:build, bench:publish): each composed from every
// block's valid example, so a site of N pages exercises every block N times.
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT, contentPaths } from '../../content/paths.ts';
import { blockTypes } from '../../content/schemas.ts';

/** How many pages the site itself has. */
export const ownPageCount = (): number =>
  readdirSync(contentPaths(ROOT).pagesDir, { recursive: true, encoding: 'utf8' }).filter((f) =>
    f.endsWith('.json'),
  ).length;

/**
 * A page's name in letters (1 is "a", 27 is "aa"): in digits, page 911 or 988 would be an emergency number that the
 * validator rightly wants as a tap-to-call link.
 */
function letters(n: number): string {
  let name = '';
  for (let rest = n; rest > 0; rest = Math.floor((rest - 1) / 26))
    name = String.fromCharCode(97 + ((rest - 1) % 26)) + name;
  return name;
}

function syntheticPage(n: number, examples: Record<string, unknown>[]): string {
  const hero = examples.find((block) => block.type === 'hero');
  const rest = examples.filter((block) => block.type !== 'hero');
  return JSON.stringify({
    $schema: '../../schemas/page.schema.json',
    title: `Synthetic Benchmark Page ${letters(n)} | Coastline Recovery`,
    name: `Benchmark ${letters(n)}`,
    description: `The synthetic page ${letters(n)}, composed from every block's example, used only to measure build cost.`,
    keywords: ['benchmark'],
    sitemap: { changefreq: 'yearly', priority: 0.3 },
    blocks: [hero, ...rest].map((block) => ({ ...block, id: undefined, aliases: undefined })),
  });
}

/** Adds synthetic pages under `<root>/pages/bench/` until the content root has `pages` pages. */
export function addSyntheticPages(root: string, pages: number): void {
  const examples = blockTypes().map(
    (type) =>
      JSON.parse(readFileSync(join(ROOT, 'blocks', type, 'example.json'), 'utf8')) as Record<string, unknown>,
  );
  mkdirSync(join(root, 'pages', 'bench'), { recursive: true });
  for (let n = 1; n <= pages - ownPageCount(); n++)
    writeFileSync(join(root, 'pages', 'bench', `page-${n}.json`), syntheticPage(n, examples));
}
