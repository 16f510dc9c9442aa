// The open document as the editor shows it: its history lives in document-store.ts; here it is opened, kept in the
// browser's storage (so a reload loses nothing; dropped once saved) and changed.
import { useCallback, useEffect, useRef, useState } from 'react';
import { isRecord, setAt, type Json } from '../../../content/json-pointer.ts';
import { moveItem } from '../schema/list.ts';
import { createDocumentStore, useDeferredHistory } from './document-store.ts';

/** A document as read from disk; `isNew`: not on disk yet; `keep`: the same document again, its edits kept. */
export type Opened = { file: string; text: string; version: string; isNew?: boolean; keep?: boolean };

let nextKey = 0;
const newKey = () => `b${++nextKey}`;
const blocksOf = (doc: unknown): Json[] => (isRecord(doc) && Array.isArray(doc.blocks) ? doc.blocks : []);
const draftKey = (file: string) => `studio-draft:${file}`;

/** `base`: the text the edits started from (a merge needs it when the file changed since). */
type Draft = { document: Json; baseVersion: string; base?: string };
export function readDraft(file: string): Draft | undefined {
  try {
    const raw = localStorage.getItem(draftKey(file));
    return raw ? (JSON.parse(raw) as Draft) : undefined;
  } catch {
    return undefined;
  }
}
export const dropDraft = (file: string) => localStorage.removeItem(draftKey(file));

export function useDocument(opened: Opened | undefined) {
  const [store] = useState(createDocumentStore);
  const { history, at } = useDeferredHistory(store);
  const [restored, setRestored] = useState(false);
  const saved = useRef<string>('');
  // What the edits started from: the version a save must name, and its text for a merge. A draft restored after a
  // reload keeps its own base, which may be older than the file now on disk.
  const base = useRef<{ text: string; version: string }>({ text: '', version: '' });

  useEffect(() => {
    if (!opened) return;
    const disk = JSON.parse(opened.text) as Json;
    saved.current = opened.isNew ? '' : JSON.stringify(disk);
    if (opened.keep) {
      base.current = { text: opened.text, version: opened.version };
      return;
    }
    const draft = readDraft(opened.file);
    const start = draft && JSON.stringify(draft.document) !== JSON.stringify(disk) ? draft.document : disk;
    setRestored(start !== disk);
    base.current =
      start !== disk && draft
        ? { text: draft.base ?? opened.text, version: draft.baseVersion }
        : { text: opened.text, version: opened.version };
    store.reset({ doc: start, keys: blocksOf(start).map(newKey), label: 'open' });
  }, [opened, store]);

  const current = history[at];
  const push = store.push;

  // Drafts follow the document; an unchanged document has none.
  useEffect(() => {
    if (!opened || !current) return;
    const timer = setTimeout(() => {
      if (JSON.stringify(current.doc) === saved.current) dropDraft(opened.file);
      else
        localStorage.setItem(
          draftKey(opened.file),
          JSON.stringify({
            document: current.doc,
            baseVersion: base.current.version,
            base: base.current.text,
          } satisfies Draft),
        );
    }, 200);
    return () => clearTimeout(timer);
  }, [current, opened]);

  const change = useCallback(
    (pointer: string, value: unknown, label = 'edit') =>
      push((s) => ({ ...s, doc: setAt(s.doc, pointer, value) as Json, label }), `${pointer}:${label}`),
    [push],
  );

  const blocks = {
    add: (index: number, block: Json) =>
      push((s) => {
        const list = [...blocksOf(s.doc)];
        list.splice(index, 0, block);
        const keys = [...s.keys];
        keys.splice(index, 0, newKey());
        return { doc: setAt(s.doc, '/blocks', list) as Json, keys, label: 'add block' };
      }),
    remove: (index: number) =>
      push((s) => ({
        doc: setAt(
          s.doc,
          '/blocks',
          blocksOf(s.doc).filter((_, i) => i !== index),
        ) as Json,
        keys: s.keys.filter((_, i) => i !== index),
        label: 'remove block',
      })),
    duplicate: (index: number) =>
      push((s) => {
        const list = [...blocksOf(s.doc)];
        const copy = structuredClone(list[index]);
        // A copy keeps no anchor: ids must be unique on a page.
        if (isRecord(copy)) {
          delete copy.id;
          delete copy.aliases;
        }
        list.splice(index + 1, 0, copy ?? null);
        const keys = [...s.keys];
        keys.splice(index + 1, 0, newKey());
        return { doc: setAt(s.doc, '/blocks', list) as Json, keys, label: 'duplicate block' };
      }),
    move: (from: number, to: number) =>
      push((s) => ({
        doc: setAt(s.doc, '/blocks', moveItem(blocksOf(s.doc), from, to)) as Json,
        keys: moveItem(s.keys, from, to),
        label: 'move block',
      })),
  };

  return {
    doc: current?.doc,
    keys: current?.keys ?? [],
    store,
    /** The draft as typed, which the editor's rendering may not have caught up with yet (what a save writes). */
    latest: () => store.current()?.doc,
    restored,
    /** The version and text the edits started from. */
    base: () => base.current,
    /** Replaces the whole document (a merge brought in a colleague's edits), as one step that can be undone. */
    replace: (next: Json, label: string) =>
      push(() => ({ doc: next, keys: blocksOf(next).map(newKey), label })),
    dirty: current !== undefined && JSON.stringify(current.doc) !== saved.current,
    change,
    blocks,
    canUndo: at > 0,
    canRedo: at < history.length - 1,
    undo: () => store.move(-1),
    redo: () => store.move(1),
    /**
     * After a save: the saved document (`doc`, or the one shown) is the new baseline, and its draft is gone, unless
     * edits typed while the save was on its way are newer (an autosave): those stay a draft, unsaved.
     */
    markSaved: (file: string, doc?: unknown) => {
      saved.current = JSON.stringify(doc ?? store.current()?.doc);
      if (JSON.stringify(store.current()?.doc) === saved.current) dropDraft(file);
      setRestored(false);
    },
  };
}

/** Ctrl+Z (Cmd+Z) undoes, with Shift redoes, anywhere in the editor. */
export function useUndoKeys(document: { undo: () => void; redo: () => void }) {
  useEffect(() => {
    const keys = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.key.toLowerCase() !== 'z') return;
      e.preventDefault();
      if (e.shiftKey) document.redo();
      else document.undo();
    };
    addEventListener('keydown', keys);
    return () => removeEventListener('keydown', keys);
  }, [document]);
}

/** "Saved." is about the file as it was: the next edit takes it away. */
export function useSavedFades(
  dirty: boolean,
  setNotice: (next: (now: string | undefined) => string | undefined) => void,
) {
  useEffect(() => {
    if (dirty) setNotice((now) => (now === 'Saved.' ? undefined : now));
  }, [dirty, setNotice]);
}
