// Adding a block: every block type with its schema's description and its example, drawn as the site draws it is
// too heavy for a list, so the example is shown as its fields. The new block starts as the example without anchors.
import { CLOSE } from '../form/IconButton.tsx';
import { Button, Card, Modal, SimpleGrid, Table, Text, TextInput } from '@mantine/core';
import { useState } from 'react';
import { isRecord, type Json } from '../../../content/json-pointer.ts';
import { fieldLabel } from '../../../content/labels.ts';
import { blockTypes } from '../schema/schemas.ts';
import { valueWords } from './field-words.ts';

/** A block's example as staff see it in the form: each field and its value, in words. */
function ExampleFields({ example }: { example: Json }) {
  const fields = isRecord(example) ? Object.entries(example).filter(([key]) => key !== 'type') : [];
  return (
    <Table fz="xs" withRowBorders={false} verticalSpacing={2}>
      <Table.Tbody>
        {fields.map(([key, value]) => (
          <Table.Tr key={key}>
            <Table.Th scope="row" style={{ verticalAlign: 'top' }}>
              {fieldLabel(key)}
            </Table.Th>
            <Table.Td>{valueWords(value)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
    </Table>
  );
}

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
    <Modal opened={opened} onClose={close} closeButtonProps={CLOSE} title="Add a block" size="xl">
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
              <ExampleFields example={b.example} />
            </details>
            <Button
              mt="xs"
              size="xs"
              onClick={() => add(newBlockFrom(b.example))}
              aria-label={`Add ${b.title} block`}
            >
              Add {b.title.toLowerCase()}
            </Button>
          </Card>
        ))}
      </SimpleGrid>
    </Modal>
  );
}
