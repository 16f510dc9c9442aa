import { describe, expect, it } from 'vitest';
import { StatsBlock } from './component.tsx';
import { renderToHtml } from '../../tests/helpers/render-to-html.tsx';

describe('stats', () => {
  it('marks a figure of risk as danger, apart from the figures of results', async () => {
    const html = await renderToHtml(
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
    const emphasis = [
      ...html.matchAll(/data-emphasis="(\w+)"[^>]*>(?:(?!data-emphasis)[\s\S])*?>([^<]+)<\/dt>/g),
    ].map(([, level, label]) => [label, level]);
    expect(emphasis).toEqual([
      ['Can be lethal', 'danger'],
      ['Success rate', 'normal'],
    ]);
  });
});
