import type { ComponentType } from 'react';
import type { Block } from '../generated/content-types.ts';
import { registry } from './registry.ts';

/** A key from the block's own content, never its position: reordering blocks keeps their state. */
export function blockKey(block: Block): string {
  if (block.id) return block.id;
  const text = JSON.stringify(block);
  let hash = 2166136261;
  for (let i = 0; i < text.length; i++) hash = Math.imul(hash ^ text.charCodeAt(i), 16777619);
  return `${block.type}-${(hash >>> 0).toString(36)}`;
}

export function BlockList({ blocks }: { blocks: Block[] }) {
  return (
    <>
      {blocks.map((block) => {
        // The registry is exhaustive over Block['type'], so this lookup is total; TS cannot correlate the union here.
        const Component = registry[block.type] as ComponentType<{ block: Block }>;
        return <Component key={blockKey(block)} block={block} />;
      })}
    </>
  );
}
