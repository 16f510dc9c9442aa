// A slice not hydrated yet must not be given a new element when the component around it re-renders: React then
// hydrates it at once, inside that render (the widget's two forms, 400-600 ms on a slow phone, as the page scrolled).
import { describe, expect, it } from 'vitest';
import type { Block } from '../../generated/content-types.ts';
import { BlockList } from '../../blocks/BlockList.tsx';
import { FormDialog } from '../forms/FormDialog.tsx';
import { sameContent } from './HydrationSlice.tsx';
import { Header } from './Header.tsx';

const block = { type: 'rich-text', text: 'Help is a call away.' } as unknown as Block;

describe('a hydration slice keeps its content across a re-render around it', () => {
  it('when the element is the same: no props, equal props, a block list of the same block', () => {
    expect(sameContent({ children: <Header /> }, { children: <Header /> })).toBe(true);
    expect(
      sameContent(
        { children: <FormDialog formId="consultation" /> },
        { children: <FormDialog formId="consultation" /> },
      ),
    ).toBe(true);
    expect(
      sameContent({ children: <BlockList blocks={[block]} /> }, { children: <BlockList blocks={[block]} /> }),
    ).toBe(true);
  });

  it('not when the content changed: another block, another form, another component', () => {
    const other = { ...block };
    expect(
      sameContent({ children: <BlockList blocks={[block]} /> }, { children: <BlockList blocks={[other]} /> }),
    ).toBe(false);
    expect(
      sameContent(
        { children: <FormDialog formId="consultation" /> },
        { children: <FormDialog formId="widget-insurance" /> },
      ),
    ).toBe(false);
    expect(sameContent({ children: <Header /> }, { children: <FormDialog formId="consultation" /> })).toBe(
      false,
    );
    expect(sameContent({ children: 'text' }, { children: 'other text' })).toBe(false);
  });
});
