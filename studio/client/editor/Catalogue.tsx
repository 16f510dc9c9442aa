// Adding a block: every block type with its schema's description and its example, drawn as the site draws it is
// too heavy for a list, so the example is shown as its fields. The new block starts as the example without anchors.
import { Button, Card, Code, Modal, SimpleGrid, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { isRecord, type Json } from '../../../content/json-pointer.ts';
import { blockTypes } from '../schema/schemas.ts';

export function newBlockFrom(example: Json): Json {
  const copy = structuredClone(example);
  if (isRecord(copy)) {
    delete copy.id;
    delete copy.aliases;
  }
  return copy;
}

export function Catalogue({
  opened,
  close,
  add,
}: {
  opened: boolean;
  close: () => void;
  add: (block: Json) => void;
}) {
  const [query, setQuery] = useState('');
  const shown = blockTypes.filter((b) =>
    `${b.type} ${b.description}`.toLowerCase().includes(query.toLowerCase()),
  );
  return (
    <Modal opened={opened} onClose={close} title="Add a block" size="xl">
      <TextInput
        label="Find a block type"
        value={query}
        onChange={(e) => setQuery(e.currentTarget.value)}
        mb="sm"
        data-autofocus
      />
      <SimpleGrid cols={2}>
        {shown.map((b) => (
          <Card key={b.type} withBorder padding="sm">
            <Text fw={700}>{b.title}</Text>
            <Text size="sm" mb="xs">
              {b.description}
            </Text>
            <details>
              <summary>
                <Text span size="xs">
                  Example
                </Text>
              </summary>
              <Code block style={{ maxHeight: 200, overflow: 'auto', fontSize: 11 }}>
                {JSON.stringify(b.example, null, 2)}
              </Code>
            </details>
            <Button
              mt="xs"
              size="xs"
              onClick={() => add(newBlockFrom(b.example))}
              aria-label={`Add ${b.type} block`}
            >
              Add {b.type}
            </Button>
          </Card>
        ))}
      </SimpleGrid>
    </Modal>
  );
}
