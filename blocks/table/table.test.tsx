import { describe, expect, it } from 'vitest';
import { TableBlock } from './component.tsx';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';

describe('table', () => {
  it("names each value's column on the cell itself, so a phone can show the row as a card", async () => {
    const page = await renderToDom(
      <TableBlock
        block={{
          type: 'table',
          heading: 'How Your Medication Shapes Your Taper',
          caption: 'Benzodiazepines and their tapers',
          columns: ['Type', 'Half-life', 'Typical taper length'],
          rows: [['Short-acting', '6-20 hours', 'Several weeks to months']],
        }}
      />,
    );
    const table = page.querySelector('table');
    expect(visibleText(table?.querySelector('caption') ?? page)).toBe('Benzodiazepines and their tapers');
    expect(
      [...(table?.querySelectorAll('thead th[scope="col"]') ?? [])].map((th) => visibleText(th)),
    ).toEqual(['Type', 'Half-life', 'Typical taper length']);
    // The row's first value heads it; each other value carries the name of its column.
    const rows = [...(table?.querySelectorAll('tbody > tr') ?? [])].map((row) =>
      [...row.children].map((cell) => [
        cell.localName,
        cell.getAttribute('scope'),
        cell.getAttribute('data-label'),
        visibleText(cell),
      ]),
    );
    expect(rows).toEqual([
      [
        ['th', 'row', null, 'Short-acting'],
        ['td', null, 'Half-life', '6-20 hours'],
        ['td', null, 'Typical taper length', 'Several weeks to months'],
      ],
    ]);
  });
});
