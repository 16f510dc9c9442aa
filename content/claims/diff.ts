// Which claim kinds a change to a document touches: the review of a change set asks a clinical reviewer for
// `clinical`, an admin for `contact`, any reviewer for `other` (issue #28, item 4).
// The two versions are walked together with the document's schema, blocks chosen by their `type`; each changed,
// added or removed value is reported with its JSON pointer and the tag in force at its field.
// Node-only (it reads the schemas through content/schemas.ts); the pure parts are in contact-links.ts and align.ts.
import type { DocumentKind } from '../kinds.ts';
import { SCHEMA_FILES, schemaId } from '../schemas.ts';
import { isObject, join } from '../json-pointer.ts';
import { resolveUrl, type Located } from '../validate/schema-walk.ts';
import { alignArrays, canonical } from './align.ts';
import { contactLinkChanged, hasContactLink } from './contact-links.ts';
import type { ClaimKind, ClaimTag } from './keyword.ts';
import { childSchema, resolveFor } from './resolve.ts';

/** One changed value. `pointer` is into the new version, or into the old one for a removed value. */
export type ClaimChange = {
  pointer: string;
  change: 'changed' | 'added' | 'removed' | 'moved';
  /** `clinical` and `contact` as they apply; `other` only when neither does. */
  kinds: ClaimKind[];
};

export type ClaimReport = {
  /** Every kind the changes touch, in the order clinical, contact, other: the reviews the change needs. */
  kinds: ClaimKind[];
  changes: ClaimChange[];
};

const ORDER: readonly ClaimKind[] = ['clinical', 'contact', 'other'];

function kindsOf(tag: ClaimTag | undefined, contactLink: boolean): ClaimKind[] {
  const kinds = new Set<ClaimKind>(tag ? [tag] : []);
  if (contactLink) kinds.add('contact');
  return kinds.size === 0 ? ['other'] : ORDER.filter((k) => kinds.has(k));
}

type Side = { value: unknown; pointer: string };
type Ctx = { out: ClaimChange[] };

/** Every leaf under a value that is added or removed whole, each with its own field's tag. */
function wholeValue(
  ctx: Ctx,
  located: Located | undefined,
  inherited: ClaimTag | undefined,
  side: Side,
  change: 'added' | 'removed',
) {
  const { node, tag } = resolveFor(located, side.value, inherited);
  const { value, pointer } = side;
  if (Array.isArray(value))
    return value.forEach((item, k) =>
      wholeValue(ctx, childSchema(node, k, value), tag, { value: item, pointer: join(pointer, k) }, change),
    );
  if (isObject(value))
    return Object.entries(value).forEach(([key, item]) =>
      wholeValue(
        ctx,
        childSchema(node, key, value),
        tag,
        { value: item, pointer: join(pointer, key) },
        change,
      ),
    );
  ctx.out.push({ pointer, change, kinds: kindsOf(tag, hasContactLink(value)) });
}

const sameShape = (a: unknown, b: unknown) =>
  Array.isArray(a)
    ? Array.isArray(b)
    : isObject(a)
      ? isObject(b) && a.type === b.type // a block whose type changed is another block
      : !Array.isArray(b) && !isObject(b);

function compare(ctx: Ctx, located: Located | undefined, inherited: ClaimTag | undefined, a: Side, b: Side) {
  if (canonical(a.value) === canonical(b.value)) return;
  if (a.value === undefined) return wholeValue(ctx, located, inherited, b, 'added');
  if (b.value === undefined) return wholeValue(ctx, located, inherited, a, 'removed');
  if (!sameShape(a.value, b.value)) {
    wholeValue(ctx, located, inherited, a, 'removed');
    return wholeValue(ctx, located, inherited, b, 'added');
  }
  const { node, tag } = resolveFor(located, b.value, inherited);
  if (Array.isArray(a.value) && Array.isArray(b.value))
    return compareArrays(
      ctx,
      node,
      tag,
      { value: a.value, pointer: a.pointer },
      { value: b.value, pointer: b.pointer },
    );
  if (isObject(a.value) && isObject(b.value)) {
    const keys = new Set([...Object.keys(a.value), ...Object.keys(b.value)]);
    for (const key of keys)
      compare(
        ctx,
        childSchema(node, key, b.value),
        tag,
        { value: a.value[key], pointer: join(a.pointer, key) },
        { value: b.value[key], pointer: join(b.pointer, key) },
      );
    return;
  }
  ctx.out.push({
    pointer: b.pointer,
    change: 'changed',
    kinds: kindsOf(tag, contactLinkChanged(a.value, b.value)),
  });
}

function compareArrays(
  ctx: Ctx,
  node: Located | undefined,
  tag: ClaimTag | undefined,
  a: { value: unknown[]; pointer: string },
  b: { value: unknown[]; pointer: string },
) {
  for (const step of alignArrays(a.value, b.value)) {
    const before = step.before === undefined ? undefined : a.value[step.before];
    const after = step.after === undefined ? undefined : b.value[step.after];
    const at = (side: { pointer: string }, k: number | undefined) =>
      k === undefined ? '' : join(side.pointer, k);
    const item = childSchema(node, 0, b.value);
    if (step.moved) {
      // The same value in another place: the order is the item's own field (a table's columns give cells their
      // meaning; the order of FAQ entries states nothing), so the item's tag decides.
      const { tag: itemTag } = resolveFor(item, after, tag);
      ctx.out.push({ pointer: at(b, step.after), change: 'moved', kinds: kindsOf(itemTag, false) });
      continue;
    }
    compare(
      ctx,
      item,
      tag,
      { value: before, pointer: at(a, step.before) },
      { value: after, pointer: at(b, step.after) },
    );
  }
}

function rootOf(kind: DocumentKind): Located {
  const root = resolveUrl(`${schemaId(SCHEMA_FILES[kind])}#`);
  if (!root) throw new Error(`the ${kind} schema is not registered`);
  return root;
}

/** The claim kinds a change from `before` to `after` (two versions of one `kind` of document) touches. */
export function claimChanges(kind: DocumentKind, before: unknown, after: unknown): ClaimReport {
  const ctx: Ctx = { out: [] };
  compare(ctx, rootOf(kind), undefined, { value: before, pointer: '' }, { value: after, pointer: '' });
  const touched = new Set(ctx.out.flatMap((c) => c.kinds));
  return { kinds: ORDER.filter((k) => touched.has(k)), changes: ctx.out };
}
