import { describe, expect, it } from 'vitest';
import { CardGridBlock } from './component.tsx';
import type { CardGridBlock as CardGrid } from '../../generated/content-types.ts';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';
import emergency from '../../pages/crisis/emergency-help.json' with { type: 'json' };

const grid = (cards: CardGrid['cards']): CardGrid => ({
  type: 'card-grid',
  heading: 'What to Look For',
  cards,
});

/** The card whose heading reads `title`. */
async function card(block: CardGrid, title: string, path?: string): Promise<Element> {
  const page = await renderToDom(<CardGridBlock block={block} />, path);
  const found = [...page.querySelectorAll('.content-card')].find(
    (element) => visibleText(element.querySelector('h3') ?? element) === title,
  );
  if (!found) throw new Error(`no card titled ${title}`);
  return found;
}

/** Each point of the card titled `title`, with whether a check mark is drawn before it. */
async function points(block: CardGrid, title: string): Promise<{ text: string; checked: boolean }[]> {
  return [...(await card(block, title)).querySelectorAll('ul.card-items > li')].map((item) => ({
    text: visibleText(item),
    checked: item.querySelector('svg.tabler-icon-check') !== null,
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
    // The icon and the badge share one line, above the title, and a critical card's icon is drawn in red.
    const head = (await card(block, 'Overdose Emergency')).querySelector(':scope > .card-head');
    const [icon, badge, ...rest] = head?.children ?? [];
    expect(icon?.matches('.icon-badge[data-tone="danger"]')).toBe(true);
    expect(icon?.querySelector('svg.tabler-icon-alert-triangle')).not.toBeNull();
    expect(visibleText(badge!)).toBe('Critical');
    expect(rest).toEqual([]);
    expect(head?.nextElementSibling?.localName).toBe('h3');
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
    const found = await card(situations as CardGrid, "Can't Stop Using", '/crisis/emergency-help');
    const links = [...found.querySelectorAll('a.card-link')].map((link) => link.getAttribute('href'));
    expect(links).toEqual(['/crisis/cant-stop-drinking', '/services/medical-detox']);
  });
});
