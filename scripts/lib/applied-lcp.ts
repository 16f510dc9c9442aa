// Largest Contentful Paint with applied (devtools) throttling, read against a floor page measured in the same run
// (docs/decisions/2026-11-28-first-screen-first-round-trip.md). Simulated throttling counts a whole document past the
// first round trip as one round trip more; applied throttling paints as the bytes arrive, as a phone does, so it shows
// whether the first screen comes in the first round trip.
import { percentile } from './stats.ts';

/** The most a page's LCP with applied throttling may be, as a multiple of the floor page's in the same run. */
export const APPLIED_LCP_GOAL = 1.1;

const median = (values: readonly number[]) =>
  percentile(
    [...values].sort((a, b) => a - b),
    0.5,
  );

/**
 * The LCP of every page in `pages` and of the floor page, `runs` times each, taken in turns (a slow minute of the
 * machine falls on all alike) by `lcpOf`: lines to print, ending with `lcp_applied_ratio=N`, the worst page's median
 * over the floor's.
 */
export async function appliedLcp(
  pages: readonly { name: string; url: string }[],
  floorUrl: string,
  runs: number,
  lcpOf: (url: string) => Promise<number>,
): Promise<string[]> {
  const targets = [...pages, { name: 'floor', url: floorUrl }];
  const measured = new Map<string, number[]>(targets.map(({ name }) => [name, []]));
  for (let run = 0; run < runs; run += 1)
    for (const { name, url } of targets) measured.get(name)!.push(Math.round(await lcpOf(url)));
  const floor = median(measured.get('floor')!);
  const ratio = (name: string) => median(measured.get(name)!) / floor;
  const worst = Math.max(...pages.map(({ name }) => ratio(name)));
  return [
    `LCP with applied (devtools) throttling, median of ${runs} runs, against the floor page with the site's headers ` +
      `(goal ≤ ${APPLIED_LCP_GOAL}× the floor; printed, not gated):`,
    ...targets.map(({ name }) => {
      const values = measured.get(name)!;
      const times = `${median(values)} ms (runs ${[...values].sort((a, b) => a - b).join(' ')})`;
      if (name === 'floor') return `  floor: ${times}`;
      const pass = ratio(name) <= APPLIED_LCP_GOAL ? '✓' : '✗';
      return `  ${name}: ${times}, ${ratio(name).toFixed(2)}× the floor ${pass}`;
    }),
    `lcp_applied_ratio=${worst.toFixed(2)}`,
  ];
}
