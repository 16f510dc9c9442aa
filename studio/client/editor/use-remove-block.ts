// Removing a block whose anchor other documents link to asks first, naming those links (References.tsx's dialog).
import { isRecord, type Json } from '../../../content/json-pointer.ts';
import { api } from '../api.ts';
import { useStableCallback } from '../use-stable-callback.ts';
import type { Reference } from './References.tsx';

export type Guard = { refs: Reference[]; what: string; proceed: () => void };

/** `remove(index)`, or a guard for `setGuard` when the block's anchor is linked from another document. */
export function useRemoveBlock(p: {
  doc: Json | undefined;
  isPage: boolean;
  path: string;
  file: string | undefined;
  remove: (index: number) => void;
  setGuard: (guard: Guard) => void;
}): (index: number) => void {
  return useStableCallback((index: number) => {
    const block = isRecord(p.doc) && Array.isArray(p.doc.blocks) ? p.doc.blocks[index] : undefined;
    const id = isRecord(block) && typeof block.id === 'string' ? block.id : undefined;
    if (!id || !p.isPage) return p.remove(index);
    void api.references(p.path, id).then((refs) => {
      const others = refs.filter((r) => r.file !== p.file);
      if (!others.length) return p.remove(index);
      p.setGuard({
        refs: others,
        what: `This block’s anchor “${id}” is linked from other documents.`,
        proceed: () => p.remove(index),
      });
    });
  });
}
