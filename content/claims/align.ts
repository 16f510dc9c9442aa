// Pairs the items of two versions of an array, so a change is reported at the item that changed, not at every
// item after an insertion. Equal items are matched in order (longest common subsequence); an item that only moved
// is a move; the rest are paired by `id` (blocks keep their id), then by position within the same gap; what is
// left was added or removed. Pure and browser-safe.
import { isObject } from '../json-pointer.ts';

/** A value as text with its keys sorted: two versions whose keys were reordered are equal. */
export function canonical(value: unknown): string {
  if (value === undefined) return 'undefined';
  return JSON.stringify(value, (_key, v: unknown) =>
    isObject(v) ? Object.fromEntries(Object.entries(v).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) : v,
  );
}

export type AlignStep = { before?: number; after?: number; moved?: boolean };

function commonSubsequence(a: string[], b: string[]): [number, number][] {
  const table = Array.from({ length: a.length + 1 }, () => new Array<number>(b.length + 1).fill(0));
  for (let i = a.length - 1; i >= 0; i--)
    for (let j = b.length - 1; j >= 0; j--)
      table[i]![j] =
        a[i] === b[j] ? table[i + 1]![j + 1]! + 1 : Math.max(table[i + 1]![j]!, table[i]![j + 1]!);
  const pairs: [number, number][] = [];
  for (let i = 0, j = 0; i < a.length && j < b.length;) {
    if (a[i] === b[j]) pairs.push([i++, j++]);
    else if (table[i + 1]![j]! >= table[i]![j + 1]!) i++;
    else j++;
  }
  return pairs;
}

const idOf = (v: unknown) => (isObject(v) && typeof v.id === 'string' ? v.id : undefined);

/** The steps that turn `before` into `after`; equal items left in place are omitted. */
export function alignArrays(before: unknown[], after: unknown[]): AlignStep[] {
  const a = before.map(canonical);
  const b = after.map(canonical);
  const common = commonSubsequence(a, b);
  const freeA = new Set(a.keys());
  const freeB = new Set(b.keys());
  for (const [i, j] of common) {
    freeA.delete(i);
    freeB.delete(j);
  }
  const steps: AlignStep[] = [];
  // An unmatched item equal to an unmatched item elsewhere moved.
  for (const i of freeA) {
    const j = [...freeB].find((k) => b[k] === a[i]);
    if (j === undefined) continue;
    steps.push({ before: i, after: j, moved: true });
    freeA.delete(i);
    freeB.delete(j);
  }
  // Gaps between the common items: pair by id anywhere, then by position within a gap.
  for (const i of freeA) {
    const id = idOf(before[i]);
    const j = id === undefined ? undefined : [...freeB].find((k) => idOf(after[k]) === id);
    if (j === undefined) continue;
    steps.push({ before: i, after: j });
    freeA.delete(i);
    freeB.delete(j);
  }
  const bounds: [number, number][] = [[-1, -1], ...common, [a.length, b.length]];
  for (let g = 0; g + 1 < bounds.length; g++) {
    const [startA, startB] = bounds[g]!;
    const [endA, endB] = bounds[g + 1]!;
    const gapA = [...freeA].filter((i) => i > startA && i < endA).sort((x, y) => x - y);
    const gapB = [...freeB].filter((j) => j > startB && j < endB).sort((x, y) => x - y);
    for (let k = 0; k < Math.max(gapA.length, gapB.length); k++)
      steps.push({ before: gapA[k], after: gapB[k] });
  }
  return steps;
}
