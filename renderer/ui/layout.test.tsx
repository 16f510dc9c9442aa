import { describe, expect, it } from 'vitest';
import { Grid } from './layout.tsx';
import { renderToDom } from '../../tests/helpers/render-to-dom.tsx';

const items = (count: number) => Array.from({ length: count }, (_, index) => <p key={index}>Item {index}</p>);

/** The grid element and the custom properties its style sets, by name. */
async function grid(element: React.ReactElement) {
  const found = (await renderToDom(element)).querySelector('div.grid');
  if (!found) throw new Error('no grid rendered');
  const style = (found.getAttribute('style') ?? '').split(';').filter(Boolean);
  return {
    element: found,
    vars: Object.fromEntries(style.map((declaration) => declaration.split(':').map((part) => part.trim()))),
  };
}

describe('Grid', () => {
  it('writes the column count of every breakpoint, each falling back to the last one given', async () => {
    const { element, vars } = await grid(<Grid cols={{ base: 1, sm: 2, lg: 4 }}>{items(4)}</Grid>);
    expect(vars).toEqual({
      '--cols-base': '1',
      '--cols-xs': '1',
      '--cols-sm': '2',
      '--cols-md': '2',
      '--cols-lg': '4',
    });
    expect(element.querySelectorAll(':scope > p')).toHaveLength(4);
    expect(element.hasAttribute('data-lone')).toBe(false);
  });

  it('names the breakpoints where the last row would hold one item alone', async () => {
    // Three cards: two columns from sm to lg leave the third alone; three columns from lg do not.
    const three = await grid(<Grid cols={{ base: 1, sm: 2, lg: 3 }}>{items(3)}</Grid>);
    expect(three.element.getAttribute('data-lone')).toBe('sm md');
    // Five in four columns and in two.
    const five = await grid(<Grid cols={{ base: 1, xs: 2, lg: 4 }}>{items(5)}</Grid>);
    expect(five.element.getAttribute('data-lone')).toBe('xs sm md lg');
    // A single item is never "alone in its last row".
    const one = await grid(<Grid cols={{ base: 1, sm: 2 }}>{items(1)}</Grid>);
    expect(one.element.hasAttribute('data-lone')).toBe(false);
  });
});
