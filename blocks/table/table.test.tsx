import { describe, expect, it } from 'vitest';
import { TableBlock } from './component.tsx';
import { renderToHtml } from '../../tests/helpers/render-to-html.tsx';

describe('table', () => {
  it("names each value's column on the cell itself, so a phone can show the row as a card", async () => {
    const html = await renderToHtml(
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
    const cells = [...html.matchAll(/<td data-label="([^"]*)">([\s\S]*?)<\/td>/g)].map(([, label, text]) => [
      label,
      text,
    ]);
    expect(cells).toEqual([
      ['Half-life', '6-20 hours'],
      ['Typical taper length', 'Several weeks to months'],
    ]);
  });
});
