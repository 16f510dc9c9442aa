import { Badge, Table, Text } from '@mantine/core';
import type { BlockProps } from '../../renderer/blocks/types.ts';
import { Section } from '../../renderer/blocks/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';

type Cell = BlockProps<'table'>['block']['rows'][number][number];

function CellContent({ cell }: { cell: Cell }) {
  if (typeof cell === 'string') return <RichText text={cell} />;
  return (
    <Badge
      color={cell.style === 'destructive' ? 'red' : 'gray'}
      variant={cell.style === 'destructive' ? 'filled' : 'light'}
    >
      {cell.text}
    </Badge>
  );
}

export function TableBlock({ block }: BlockProps<'table'>) {
  return (
    <Section block={block} size="md">
      <Table.ScrollContainer minWidth={520}>
        <Table striped withTableBorder verticalSpacing="sm" className="content-table">
          <caption className="visually-hidden">{block.caption}</caption>
          <Table.Thead>
            <Table.Tr>
              {block.columns.map((column) => (
                <Table.Th key={column} scope="col">
                  {column}
                </Table.Th>
              ))}
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {block.rows.map((row) => {
              const [first, ...rest] = row;
              const key = JSON.stringify(row);
              return (
                <Table.Tr key={key}>
                  <Table.Th scope="row">{first !== undefined && <CellContent cell={first} />}</Table.Th>
                  {rest.map((cell, index) => (
                    <Table.Td key={`${index}-${JSON.stringify(cell)}`}>
                      <CellContent cell={cell} />
                    </Table.Td>
                  ))}
                </Table.Tr>
              );
            })}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
      {block.note && (
        <Text size="sm" c="dimmed" mt="sm">
          <RichText text={block.note} />
        </Text>
      )}
    </Section>
  );
}
