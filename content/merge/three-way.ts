// Two people edited the same document from the same version: bring both edits together, field by field. An edit to
// a field the other left alone is kept; only a field both changed, to different values, is a conflict, which is
// returned for a person to decide (never decided here). Array items are paired across versions by
// content/claims/align.ts (equal items, then `id`, then position), so a colleague's edit to another block survives
// an insertion or a reorder on this side. Pure and browser-safe: the studio runs it, the change-set API may too.
import { alignArrays, canonical } from '../claims/align.ts';
import { isObject, join, type Json } from '../json-pointer.ts';

/** A field both sides changed to different values. `undefined`: that side removed it (or never had it). */
export type MergeConflict = { pointer: string; base?: Json; mine?: Json; theirs?: Json };

export type MergeResult = {
  /** Both sides' edits; at a conflict, mine (until a person decides). */
  merged: Json;
  conflicts: MergeConflict[];
};

type Value = Json | undefined;

const same = (a: Value, b: Value) => canonical(a) === canonical(b);

/** A side chosen at a conflict, by the conflict's pointer. */
export type Choices = Readonly<Record<string, 'mine' | 'theirs'>>;

/**
 * Merges `mine` and `theirs`, two edits of `base`. At a conflict the merged value is the side `choices` names for
 * its pointer (mine when none): merging again with a person's choices gives the document to save.
 */
export function mergeThreeWay(base: Json, mine: Json, theirs: Json, choices: Choices = {}): MergeResult {
  const conflicts: MergeConflict[] = [];
  const merged = mergeValue('', base, mine, theirs, { conflicts, choices });
  return { merged: merged === undefined ? null : merged, conflicts };
}

type Run = { conflicts: MergeConflict[]; choices: Choices };

function mergeValue(pointer: string, base: Value, mine: Value, theirs: Value, run: Run): Value {
  if (same(mine, theirs)) return mine;
  if (same(base, mine)) return theirs;
  if (same(base, theirs)) return mine;
  if (isObject(base) && isObject(mine) && isObject(theirs) && !Array.isArray(mine) && !Array.isArray(theirs))
    return mergeObjects(pointer, base, mine, theirs, run);
  if (Array.isArray(base) && Array.isArray(mine) && Array.isArray(theirs))
    return mergeArrays(pointer, base, mine, theirs, run);
  run.conflicts.push({
    pointer,
    ...(base === undefined ? {} : { base }),
    ...(mine === undefined ? {} : { mine }),
    ...(theirs === undefined ? {} : { theirs }),
  });
  return run.choices[pointer] === 'theirs' ? theirs : mine;
}

function mergeObjects(
  pointer: string,
  base: Record<string, Json>,
  mine: Record<string, Json>,
  theirs: Record<string, Json>,
  run: Run,
): Json {
  const out: Record<string, Json> = {};
  // Mine's key order first (the file keeps the order its editor sees), then keys only theirs added.
  const keys = [...new Set([...Object.keys(mine), ...Object.keys(theirs), ...Object.keys(base)])];
  for (const key of keys) {
    const value = mergeValue(join(pointer, key), base[key], mine[key], theirs[key], run);
    if (value !== undefined) out[key] = value;
  }
  return out;
}

/** For each item of `base`, the index of its partner in `other` (undefined: `other` removed it); and what `other` added. */
function partners(base: Json[], other: Json[]): { of: (number | undefined)[]; added: number[] } {
  // alignArrays omits equal items left in place; every step it returns pairs, adds or removes an item.
  const steps = alignArrays(base, other);
  const touchedBase = new Set(steps.flatMap((s) => (s.before === undefined ? [] : [s.before])));
  const touchedOther = new Set(steps.flatMap((s) => (s.after === undefined ? [] : [s.after])));
  const restOther = [...other.keys()].filter((j) => !touchedOther.has(j));
  const of: (number | undefined)[] = [];
  // Items left in place: the k-th untouched base item is the k-th untouched item of `other`.
  let k = 0;
  for (const i of base.keys()) if (!touchedBase.has(i)) of[i] = restOther[k++];
  for (const step of steps) if (step.before !== undefined) of[step.before] = step.after;
  const matched = new Set(of.filter((j) => j !== undefined));
  return { of, added: [...other.keys()].filter((j) => !matched.has(j)) };
}

function mergeArrays(pointer: string, base: Json[], mine: Json[], theirs: Json[], run: Run): Json[] {
  const inMine = partners(base, mine);
  const inTheirs = partners(base, theirs);
  // Each base item merged on its own; its pointer is its place in mine (what the editor shows), else in base.
  const mergedAt = base.map((item, i) => {
    const m = inMine.of[i];
    const t = inTheirs.of[i];
    return mergeValue(
      join(pointer, m ?? i),
      item,
      m === undefined ? undefined : mine[m],
      t === undefined ? undefined : theirs[t],
      run,
    );
  });
  // The side that reordered the items both kept sets the order (mine when both or neither did).
  const reordered = (map: (number | undefined)[]) => {
    const order = map.filter((j) => j !== undefined);
    return order.some((j, k) => k > 0 && j < order[k - 1]!);
  };
  const theirsLead = !reordered(inMine.of) && reordered(inTheirs.of);
  const [lead, leadMap, other, otherMap] = theirsLead
    ? ([theirs, inTheirs, mine, inMine] as const)
    : ([mine, inMine, theirs, inTheirs] as const);
  // The other side's added items follow the base item they came after there (or open the list).
  const follows = new Map<number, Json[]>();
  for (const j of otherMap.added) {
    let anchor = -1;
    for (let p = j - 1; p >= 0 && anchor === -1; p--) anchor = otherMap.of.indexOf(p);
    follows.set(anchor, [...(follows.get(anchor) ?? []), other[j]!]);
  }
  const result: Json[] = [];
  const placed = new Set<number>();
  const emit = (i: number) => {
    placed.add(i);
    const value = mergedAt[i];
    if (value !== undefined) result.push(value);
    result.push(...(follows.get(i) ?? []));
  };
  result.push(...(follows.get(-1) ?? []));
  const baseOf = new Map(leadMap.of.flatMap((j, i) => (j === undefined ? [] : [[j, i] as const])));
  lead.forEach((item, j) => {
    const i = baseOf.get(j);
    if (i === undefined) return void result.push(item);
    // A base item the leading side removed (kept only if the other changed it and a person chose that) stays near
    // where it was.
    for (let r = 0; r < i; r++) if (!placed.has(r) && leadMap.of[r] === undefined) emit(r);
    emit(i);
  });
  for (const i of base.keys()) if (!placed.has(i)) emit(i);
  return result;
}

/** One field that differs between two versions: `before` undefined when added, `after` undefined when removed. */
export type FieldChange = { pointer: string; before?: Json; after?: Json };

/**
 * The fields `after` changed in `before`, as the merge sees them (array items paired as above): what a colleague
 * changed, or what a save will write, shown as fields and values rather than lines of JSON. Pointers are into
 * `after`, or into `before` for a removed item.
 */
export function changedFields(
  before: Json | undefined,
  after: Json | undefined,
  pointer = '',
): FieldChange[] {
  if (same(before, after)) return [];
  if (isObject(before) && isObject(after) && !Array.isArray(before) && !Array.isArray(after)) {
    const keys = [...new Set([...Object.keys(after), ...Object.keys(before)])];
    return keys.flatMap((key) => changedFields(before[key], after[key], join(pointer, key)));
  }
  if (Array.isArray(before) && Array.isArray(after)) {
    const { of, added } = partners(before, after);
    return [
      ...before.flatMap((item, i) => {
        const j = of[i];
        return changedFields(item, j === undefined ? undefined : after[j], join(pointer, j ?? i));
      }),
      ...added.map((j) => ({ pointer: join(pointer, j), after: after[j]! })),
    ];
  }
  return [
    {
      pointer,
      ...(before === undefined ? {} : { before }),
      ...(after === undefined ? {} : { after }),
    },
  ];
}
