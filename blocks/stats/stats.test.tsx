import { describe, expect, it } from 'vitest';
import { StatsBlock } from './component.tsx';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';

describe('stats', () => {
  it('marks a figure of risk as danger, apart from the figures of results', async () => {
    const page = await renderToDom(
      <StatsBlock
        block={{
          type: 'stats',
          heading: 'Why Fentanyl Needs Urgent Care',
          items: [
            { value: '2 mg', label: 'Can be lethal', emphasis: 'danger' },
            { value: '74%', label: 'Success rate' },
          ],
        }}
      />,
    );
    // Each figure is a group of the description list: its label (dt), then its value (dd).
    const figures = [...page.querySelectorAll('dl.stats > div.stat')].map((stat) => ({
      label: visibleText(stat.querySelector(':scope > dt') ?? stat),
      value: visibleText(stat.querySelector(':scope > dd') ?? stat),
      emphasis: stat.getAttribute('data-emphasis'),
    }));
    expect(figures).toEqual([
      { label: 'Can be lethal', value: '2 mg', emphasis: 'danger' },
      { label: 'Success rate', value: '74%', emphasis: 'normal' },
    ]);
  });
});
