// The form of the selected block: its kind in words, what the kind is for, and a field for each of its properties.
import { Stack, Text, Title } from '@mantine/core';
import type { Json } from '../../../content/json-pointer.ts';
import { blockTypeLabel } from '../../../content/labels.ts';
import { ObjectFields } from '../form/SchemaField.tsx';
import type { BlockType } from '../schema/schemas.ts';
import { blockLabel } from './Outline.tsx';

type Props = { index: number; type: BlockType; block: Json | undefined; blockKey: string | undefined };

export function BlockFields({ index, type, block, blockKey }: Props) {
  const { heading } = blockLabel(block);
  return (
    <Stack gap="xs">
      <Title order={2} size="h5">
        Block {index + 1}: {blockTypeLabel(type.type)} {heading ? `– ${heading}` : ''}
      </Title>
      <Text size="xs" c="dimmed">
        {type.description}
      </Text>
      <ObjectFields
        key={blockKey}
        node={type.node}
        pointer={`/blocks/${index}`}
        value={block}
        skip={['type']}
      />
    </Stack>
  );
}
