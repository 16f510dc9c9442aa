import { describe, expect, it } from 'vitest';
import { createDocumentStore } from './document-store.ts';
import { setAt, type Json } from '../../../content/json-pointer.ts';

const typed = (store: ReturnType<typeof createDocumentStore>, text: string) =>
  store.push((s) => ({ ...s, doc: setAt(s.doc, '/heading', text) as Json, label: 'edit' }), '/heading:edit');

describe('the document store', () => {
  it('builds each edit on the one before, even before anything has rendered', () => {
    const store = createDocumentStore();
    store.reset({ doc: { heading: 'A', blocks: [] }, keys: [], label: 'open' });
    for (const text of ['Ab', 'Abc', 'Abcd']) typed(store, text);
    expect(store.current()?.doc).toEqual({ heading: 'Abcd', blocks: [] });
    expect(store.typing()).toBe(true);
    // A burst of typing in one field is one step of undo.
    store.move(-1);
    expect(store.current()?.doc).toEqual({ heading: 'A', blocks: [] });
    expect(store.typing()).toBe(false);
    store.move(1);
    expect(store.current()?.doc).toEqual({ heading: 'Abcd', blocks: [] });
  });

  it('tells its listeners of every change at once', () => {
    const store = createDocumentStore();
    const seen: unknown[] = [];
    store.subscribe(() => seen.push(store.current()?.doc));
    store.reset({ doc: { heading: 'A' }, keys: [], label: 'open' });
    typed(store, 'AB');
    expect(seen).toEqual([{ heading: 'A' }, { heading: 'AB' }]);
  });
});
