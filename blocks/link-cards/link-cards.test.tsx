import { describe, expect, it } from 'vitest';
import { LinkCardsBlock } from './component.tsx';
import type { LinkCardsBlock as LinkCards } from '../../generated/content-types.ts';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';

const links = (n: number) =>
  Array.from({ length: n }, (_, i) => ({ label: `Treatment ${i + 1}`, href: `/treatment/t-${i + 1}` }));
const block = (cards: LinkCards['cards'], maxLinks?: number): LinkCards => ({
  type: 'link-cards',
  heading: 'Addictions We Treat',
  moreLabel: '+{count} more treatments',
  learnMoreLabel: 'Learn More',
  maxLinks,
  cards,
});

/** The one card rendered: its listed links as [text, href], and all its text. */
async function card(shown: LinkCards) {
  const page = await renderToDom(<LinkCardsBlock block={shown} />);
  const cards = page.querySelectorAll('.content-card');
  expect(cards).toHaveLength(1);
  const [found] = cards;
  return {
    element: found!,
    listed: [...found!.querySelectorAll('ul.link-list > li > a')].map((a) => [
      visibleText(a),
      a.getAttribute('href'),
    ]),
    text: visibleText(found!),
  };
}

describe('link-cards', () => {
  it('shows the first three links, a "+N more" note and Learn More to the first link', async () => {
    const { element, listed, text } = await card(
      block([{ title: 'Opioids', text: 'About opioids.', links: links(7) }]),
    );
    expect(listed).toEqual([
      ['Treatment 1', '/treatment/t-1'],
      ['Treatment 2', '/treatment/t-2'],
      ['Treatment 3', '/treatment/t-3'],
    ]);
    expect(text).not.toContain('Treatment 4');
    expect(text).toContain('Treatment 3 +4 more treatments Learn More');
    // Learn More goes to the first link and names the card, for screen readers and search engines alike.
    const learnMore = [...element.querySelectorAll('a[href="/treatment/t-1"]')].map((a) => visibleText(a));
    expect(learnMore).toEqual(['Treatment 1', 'Learn More: Opioids']);
  });

  it('has no note when every link fits, and honours maxLinks', async () => {
    const fits = await card(block([{ title: 'Alcohol', text: 'About alcohol.', links: links(3) }]));
    expect(fits.listed).toHaveLength(3);
    expect(fits.text).not.toContain('more treatments');
    const two = await card(block([{ title: 'Alcohol', text: 'About alcohol.', links: links(3) }], 2));
    expect(two.listed.map(([label]) => label)).toEqual(['Treatment 1', 'Treatment 2']);
    expect(two.text).toContain('+1 more treatments');
  });
});
