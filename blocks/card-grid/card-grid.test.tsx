import { describe, expect, it } from 'vitest';
import { CardGridBlock } from './component.tsx';
import type { CardGridBlock as CardGrid } from '../../generated/content-types.ts';
import { renderToHtml, visibleText } from '../../tests/helpers/render-to-html.tsx';
import emergency from '../../pages/crisis/emergency-help.json' with { type: 'json' };

const grid = (cards: CardGrid['cards']): CardGrid => ({
  type: 'card-grid',
  heading: 'What to Look For',
  cards,
});

/** Each point of the card titled `title`, with whether a check mark is drawn before it. */
async function points(block: CardGrid, title: string): Promise<{ text: string; checked: boolean }[]> {
  const html = await renderToHtml(<CardGridBlock block={block} />);
  const card = html.slice(html.indexOf(`>${title}<`));
  const list = /<ul[^>]*class="[^"]*card-items[^"]*"[^>]*>([\s\S]*?)<\/ul>/.exec(card)?.[1] ?? '';
  return [...list.matchAll(/<li[^>]*>([\s\S]*?)<\/li>/g)].map(([, item = '']) => ({
    text: visibleText(item),
    checked: item.includes('tabler-icon-check'),
  }));
}

describe('card-grid', () => {
  it('marks signs of danger with plain bullets, never with check marks', async () => {
    const block = grid([
      {
        title: 'Overdose Emergency',
        severity: 'critical',
        badge: 'Critical',
        icon: 'alert-triangle',
        items: ['Slow, shallow or stopped breathing', 'Blue or gray lips or fingertips'],
      },
    ]);
    expect(await points(block, 'Overdose Emergency')).toEqual([
      { text: 'Slow, shallow or stopped breathing', checked: false },
      { text: 'Blue or gray lips or fingertips', checked: false },
    ]);
    const html = await renderToHtml(<CardGridBlock block={block} />);
    // The icon and the badge share one line, and a critical card's icon is drawn in red.
    expect(html).toMatch(/class="card-head"><span class="icon-badge"[^>]*data-tone="danger"/);
    expect(visibleText(html)).toContain('Critical Overdose Emergency');
  });

  it('puts check marks only before what the care includes, when the card asks for them', async () => {
    const block = grid([
      { title: 'Signs', items: ['Needing more for the same effect'] },
      { title: 'Safe Medical Care', items: ['Doctors and nurses on site'], itemMarker: 'check' },
    ]);
    expect(await points(block, 'Signs')).toEqual([
      { text: 'Needing more for the same effect', checked: false },
    ]);
    expect(await points(block, 'Safe Medical Care')).toEqual([
      { text: 'Doctors and nurses on site', checked: true },
    ]);
  });

  it("links a card to every page it names, its link first: the emergency page's Can't Stop Using card", async () => {
    const situations = emergency.blocks.find((block) => 'id' in block && block.id === 'situations');
    const html = await renderToHtml(
      <CardGridBlock block={situations as CardGrid} />,
      '/crisis/emergency-help',
    );
    const start = html.indexOf('>Can&#x27;t Stop Using<');
    const next = html.indexOf('data-severity=', start);
    const card = html.slice(start, next === -1 ? undefined : next);
    const links = [...card.matchAll(/<a class="card-link" href="([^"]+)"/g)].map((match) => match[1]);
    expect(links).toEqual(['/crisis/cant-stop-drinking', '/services/medical-detox']);
  });
});
