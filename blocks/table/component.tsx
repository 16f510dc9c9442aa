import { Badge, Text } from '@mantine/core';
import type { BlockProps } from '../types.ts';
import { Section } from '../../renderer/ui/Section.tsx';
import { RichText } from '../../renderer/text/RichText.tsx';
import './styles.css';

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

// A plain table: Mantine's Table carries a scrollbar library into every page's first load.
export function TableBlock({ block }: BlockProps<'table'>) {
  return (
    <Section block={block} size="md">
      <div className="table-scroll" tabIndex={0} role="region" aria-label={block.caption}>
        <table className="content-table">
          <caption className="visually-hidden">{block.caption}</caption>
          <thead>
            <tr>
              {block.columns.map((column) => (
                <th key={column} scope="col">
                  {column}
                </th>
              ))}
            </tr>
          </thead>
          <tbody>
            {block.rows.map((row) => {
              const [first, ...rest] = row;
              return (
                <tr key={JSON.stringify(row)}>
                  <th scope="row">{first !== undefined && <CellContent cell={first} />}</th>
                  {rest.map((cell, index) => (
                    <td key={`${index}-${JSON.stringify(cell)}`} data-label={block.columns[index + 1]}>
                      <CellContent cell={cell} />
                    </td>
                  ))}
                </tr>
              );
            })}
          </tbody>
        </table>
      </div>
      {block.note && (
        <Text size="sm" c="dimmed" mt="sm">
          <RichText text={block.note} />
        </Text>
      )}
    </Section>
  );
}
