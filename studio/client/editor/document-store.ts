// The open document and its history, outside React: every change is a new snapshot, so undo and redo cover fields
// and structure alike; typing in one field within a second is one step. A keystroke changes the store at once; the
// field that changed and the preview frames follow it at once, and the rest of the editor (outline, checks, toolbar)
// in a transition that gives way to the next keystroke.
import { startTransition, useEffect, useState, useSyncExternalStore } from 'react';
import { valueAt, type Json } from '../../../content/json-pointer.ts';

export type Snapshot = { doc: Json; keys: string[]; label: string };
export type History = { history: Snapshot[]; at: number };

const GROUP_MS = 1000;

export type DocumentStore = ReturnType<typeof createDocumentStore>;

export function createDocumentStore() {
  let state: History = { history: [], at: 0 };
  let last: { group: string; time: number } | undefined;
  let typing = false;
  const listeners = new Set<() => void>();
  const emit = (next: History, typed = false) => {
    state = next;
    typing = typed;
    for (const listener of listeners) listener();
  };
  return {
    get: () => state,
    /** Whether the last change was typing in a field (rather than a click: structure, undo, opening). */
    typing: () => typing,
    current: (): Snapshot | undefined => state.history[state.at],
    subscribe: (listener: () => void) => {
      listeners.add(listener);
      return () => void listeners.delete(listener);
    },
    reset: (snapshot: Snapshot) => {
      last = undefined;
      emit({ history: [snapshot], at: 0 });
    },
    push: (make: (s: Snapshot) => Snapshot, group?: string) => {
      const base = state.history[state.at];
      if (!base) return;
      const now = Date.now();
      const merge = group !== undefined && last?.group === group && now - last.time < GROUP_MS;
      last = group === undefined ? undefined : { group, time: now };
      const next = make(base);
      const { history, at } = state;
      emit(
        merge && at > 0
          ? { history: [...history.slice(0, at), next], at }
          : { history: [...history.slice(0, at + 1), next], at: at + 1 },
        group !== undefined,
      );
    },
    move: (by: -1 | 1) => {
      last = undefined;
      emit({ ...state, at: Math.min(state.history.length - 1, Math.max(0, state.at + by)) });
    },
  };
}

/** The store as the editor renders it: typing in a transition (a burst of it renders once), a click at once. */
export function useDeferredHistory(store: DocumentStore): History {
  const [shown, setShown] = useState(store.get);
  useEffect(() => {
    setShown(store.get());
    return store.subscribe(() => {
      const next = store.get();
      if (store.typing()) startTransition(() => setShown(next));
      else setShown(next);
    });
  }, [store]);
  return shown;
}

/** The value at `pointer` in the draft as typed (`fallback` before one is open); renders again only when it changes. */
export function useDraftAt(store: DocumentStore, pointer: string, fallback: unknown): unknown {
  return useSyncExternalStore(store.subscribe, () => {
    const current = store.current();
    return current ? valueAt(current.doc, pointer) : fallback;
  });
}
