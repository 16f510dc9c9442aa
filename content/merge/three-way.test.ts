import { describe, expect, it } from 'vitest';
import type { Json } from '../json-pointer.ts';
import { changedFields, mergeThreeWay } from './three-way.ts';

const page = (blocks: Json[], extra: Record<string, Json> = {}): Json => ({
  title: 'Medical detox',
  description: 'Safe detox',
  ...extra,
  blocks,
});
const hero = (heading: string): Json => ({ type: 'hero', id: 'top', heading });
const faq = (items: Json[]): Json => ({ type: 'faq', id: 'questions', items });

describe('three-way merge of two edits of one document', () => {
  it('keeps a colleague’s edit to another block beside mine', () => {
    const base = page([hero('Detox'), faq([{ q: 'How long?', a: 'A week.' }])]);
    const mine = page([hero('Detox, day and night'), faq([{ q: 'How long?', a: 'A week.' }])]);
    const theirs = page([hero('Detox'), faq([{ q: 'How long?', a: 'Five to seven days.' }])]);
    const { merged, conflicts } = mergeThreeWay(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(
      page([hero('Detox, day and night'), faq([{ q: 'How long?', a: 'Five to seven days.' }])]),
    );
  });

  it('keeps their edit to another field of the same block, and to the page settings', () => {
    const base = page([{ type: 'hero', id: 'top', heading: 'Detox', body: 'Call us' }]);
    const mine = page([{ type: 'hero', id: 'top', heading: 'Detox today', body: 'Call us' }]);
    const theirs = page([{ type: 'hero', id: 'top', heading: 'Detox', body: 'Call us now' }], {
      description: 'Safe, supervised detox',
    });
    const { merged, conflicts } = mergeThreeWay(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(
      page([{ type: 'hero', id: 'top', heading: 'Detox today', body: 'Call us now' }], {
        description: 'Safe, supervised detox',
      }),
    );
  });

  it('stops at a field both changed to different values, naming both values, and keeps mine until chosen', () => {
    const base = page([hero('Detox')]);
    const mine = page([hero('Mine')]);
    const theirs = page([hero('Theirs')], { title: 'Renamed' });
    const { merged, conflicts } = mergeThreeWay(base, mine, theirs);
    expect(conflicts).toEqual([
      { pointer: '/blocks/0/heading', base: 'Detox', mine: 'Mine', theirs: 'Theirs' },
    ]);
    expect(merged).toEqual(page([hero('Mine')], { title: 'Renamed' }));
    expect(mergeThreeWay(base, mine, theirs, { '/blocks/0/heading': 'theirs' }).merged).toEqual(
      page([hero('Theirs')], { title: 'Renamed' }),
    );
  });

  it('is no conflict when both made the same change', () => {
    const base = page([hero('Detox')]);
    const both = page([hero('Same')]);
    expect(mergeThreeWay(base, both, both)).toEqual({ merged: both, conflicts: [] });
  });

  it('pairs blocks by id: my edit survives their new block above it and their reorder', () => {
    const cta: Json = { type: 'cta-band', id: 'call', heading: 'Call' };
    const base = page([hero('Detox'), cta]);
    const mine = page([hero('Detox now'), cta]);
    const added: Json = { type: 'text', id: 'intro', body: 'Hello' };
    const theirs = page([{ ...(cta as object), heading: 'Call today' }, added, hero('Detox')]);
    const { merged, conflicts } = mergeThreeWay(base, mine, theirs);
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(
      page([{ type: 'cta-band', id: 'call', heading: 'Call today' }, added, hero('Detox now')]),
    );
  });

  it('keeps blocks both sides added, each where its author put it', () => {
    const base = page([hero('Detox'), faq([])]);
    const a: Json = { type: 'text', id: 'a', body: 'mine' };
    const b: Json = { type: 'text', id: 'b', body: 'theirs' };
    const { merged, conflicts } = mergeThreeWay(
      base,
      page([hero('Detox'), a, faq([])]),
      page([hero('Detox'), faq([]), b]),
    );
    expect(conflicts).toEqual([]);
    expect(merged).toEqual(page([hero('Detox'), a, faq([]), b]));
  });

  it('removes a block one side removed and the other left alone; removed-and-changed is a conflict', () => {
    const base = page([hero('Detox'), faq([])]);
    expect(mergeThreeWay(base, page([hero('Detox')]), page([hero('Detox!'), faq([])])).merged).toEqual(
      page([hero('Detox!')]),
    );
    const changed = faq([{ q: 'New?', a: 'Yes.' }]);
    const result = mergeThreeWay(base, page([hero('Detox')]), page([hero('Detox'), changed]));
    expect(result.conflicts).toEqual([{ pointer: '/blocks/1', base: faq([]), theirs: changed }]);
    expect(result.merged).toEqual(page([hero('Detox')]));
    expect(
      mergeThreeWay(base, page([hero('Detox')]), page([hero('Detox'), changed]), { '/blocks/1': 'theirs' })
        .merged,
    ).toEqual(page([hero('Detox'), changed]));
  });

  it('keeps a field one side removed only if the other did not change it', () => {
    const base = { title: 'T', note: 'x' };
    expect(mergeThreeWay(base, { title: 'T' }, { title: 'U', note: 'x' }).merged).toEqual({ title: 'U' });
    expect(mergeThreeWay(base, { title: 'T' }, { title: 'T', note: 'y' }).conflicts).toEqual([
      { pointer: '/note', base: 'x', theirs: 'y' },
    ]);
  });

  it('merges list items without ids by position: an edit to item 2 and one to item 3 both stay', () => {
    const base = { items: ['a', 'b', 'c'] };
    expect(mergeThreeWay(base, { items: ['a', 'B', 'c'] }, { items: ['a', 'b', 'C'] }).merged).toEqual({
      items: ['a', 'B', 'C'],
    });
  });
});

describe('the fields one version changed in another', () => {
  it('names each changed field by its pointer, with both values; a reorder alone changes no field', () => {
    const base = page([hero('Detox'), faq([{ q: 'How long?', a: 'A week.' }])]);
    const after = page([faq([{ q: 'How long?', a: 'Five days.' }]), hero('Detox')], { title: 'Detox' });
    expect(changedFields(base, after)).toEqual([
      { pointer: '/title', before: 'Medical detox', after: 'Detox' },
      { pointer: '/blocks/0/items/0/a', before: 'A week.', after: 'Five days.' },
    ]);
  });
});
