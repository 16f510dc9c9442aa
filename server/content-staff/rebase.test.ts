import { describe, expect, it } from 'vitest';
import { rebaseDocument } from './rebase.ts';

const text = (value: unknown) => `${JSON.stringify(value, null, 2)}\n`;
const base = {
  title: 'Detox',
  blocks: [{ type: 'hero', heading: 'A', lead: 'B' }],
  seo: { description: 'D' },
};

describe('rebasing a document field by field', () => {
  it("keeps the set's text when live has not moved, and takes live's when the set did not change it", () => {
    const ours = text({ ...base, title: 'Medical detox' });
    expect(rebaseDocument(text(base), text(base), ours)).toEqual({ text: ours, conflicts: [] });
    const live = text({ ...base, title: 'Live' });
    expect(rebaseDocument(text(base), live, text(base))).toEqual({ text: live, conflicts: [] });
  });

  it('merges changes to different fields, both kept', () => {
    const live = { ...base, blocks: [{ type: 'hero', heading: 'Live heading', lead: 'B' }] };
    const ours = { ...base, blocks: [{ type: 'hero', heading: 'A', lead: 'Our lead' }], title: 'Ours' };
    const merged = rebaseDocument(text(base), text(live), text(ours));
    expect(merged.conflicts).toEqual([]);
    expect(JSON.parse(merged.text ?? '')).toEqual({
      ...base,
      title: 'Ours',
      blocks: [{ type: 'hero', heading: 'Live heading', lead: 'Our lead' }],
    });
  });

  it('stops at a field both changed to different values, naming its pointer', () => {
    const live = { ...base, blocks: [{ type: 'hero', heading: 'Live', lead: 'B' }] };
    const ours = { ...base, blocks: [{ type: 'hero', heading: 'Ours', lead: 'B' }] };
    expect(rebaseDocument(text(base), text(live), text(ours)).conflicts).toEqual(['/blocks/0/heading']);
    // A block added on each side: both kept, nothing asked (items are paired by content, as in the studio).
    const liveAdded = { ...base, blocks: [...base.blocks, { type: 'faq' }] };
    const oursAdded = { ...base, blocks: [...base.blocks, { type: 'cta' }] };
    const added = rebaseDocument(text(base), text(liveAdded), text(oursAdded));
    expect(added.conflicts).toEqual([]);
    expect((JSON.parse(added.text!) as typeof base).blocks.map((block) => block.type).sort()).toEqual([
      'cta',
      'faq',
      'hero',
    ]);
    // Deleted by the set, changed live.
    expect(rebaseDocument(text(base), text(live), null).conflicts).toEqual(['']);
  });
});
