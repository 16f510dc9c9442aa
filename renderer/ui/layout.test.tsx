import { describe, expect, it } from 'vitest';
import { Grid } from './layout.tsx';
import { renderToHtml } from '../../tests/helpers/render-to-html.tsx';

const items = (count: number) => Array.from({ length: count }, (_, index) => <p key={index}>Item {index}</p>);
const gridTag = async (element: React.ReactElement) =>
  /<div class="grid"[^>]*>/.exec(await renderToHtml(element))![0];

describe('Grid', () => {
  it('writes the column count of every breakpoint, each falling back to the last one given', async () => {
    const tag = await gridTag(<Grid cols={{ base: 1, sm: 2, lg: 4 }}>{items(4)}</Grid>);
    expect(tag).toContain('--cols-base:1;--cols-xs:1;--cols-sm:2;--cols-md:2;--cols-lg:4');
    expect(tag).not.toContain('data-lone');
  });

  it('names the breakpoints where the last row would hold one item alone', async () => {
    // Three cards: two columns from sm to lg leave the third alone; three columns from lg do not.
    expect(await gridTag(<Grid cols={{ base: 1, sm: 2, lg: 3 }}>{items(3)}</Grid>)).toContain(
      'data-lone="sm md"',
    );
    // Five in four columns and in two.
    expect(await gridTag(<Grid cols={{ base: 1, xs: 2, lg: 4 }}>{items(5)}</Grid>)).toContain(
      'data-lone="xs sm md lg"',
    );
    // A single item is never "alone in its last row".
    expect(await gridTag(<Grid cols={{ base: 1, sm: 2 }}>{items(1)}</Grid>)).not.toContain('data-lone');
  });
});
