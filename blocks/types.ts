import type { ComponentType } from 'react';
import type { Block, BlockType } from '../generated/content-types.ts';

export type BlockOf<T extends BlockType> = Extract<Block, { type: T }>;
export type BlockProps<T extends BlockType> = { block: BlockOf<T> };

/** Every block type must have exactly one component: the registry is checked against the generated union. */
export type BlockRegistry = { [T in BlockType]: ComponentType<BlockProps<T>> };
