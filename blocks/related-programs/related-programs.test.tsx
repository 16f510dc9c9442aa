import { describe, expect, it } from 'vitest';
import { RelatedProgramsBlock } from './component.tsx';
import type { RelatedProgramsBlock as Related } from '../../generated/content-types.ts';
import { renderToDom, visibleText } from '../../tests/helpers/render-to-dom.tsx';
import example from './example.json' with { type: 'json' };

/** The card headings and their links, in the order shown. */
async function cards(block: Related, path: string) {
  const page = await renderToDom(<RelatedProgramsBlock block={block} />, path);
  const shown = [...page.querySelectorAll('.content-card')];
  return {
    titles: shown.map((card) => visibleText(card.querySelector('h3') ?? card)),
    links: shown.map((card) => card.querySelector('a.card-link')?.getAttribute('href')),
    linkTexts: shown.map((card) => visibleText(card.querySelector('a.card-link') ?? card)),
  };
}

describe('related-programs', () => {
  it('shows the picked programs, in their order, with links to them', async () => {
    const { titles, links, linkTexts } = await cards(example as Related, '/treatment/tramadol-addiction');
    expect(titles).toEqual(['Opioid Dependency', 'Prescription Drugs', 'Medical Detox']);
    expect(links).toEqual(example.picks);
    // Each link names its program, for screen readers and search engines.
    expect(linkTexts).toEqual(titles.map((title) => `${example.learnMoreLabel}: ${title} →`));
  });

  it('chooses by the general rule when the page picks none', async () => {
    const general: Related = { ...(example as Related), picks: undefined };
    const { titles } = await cards(general, '/treatment/tramadol-addiction');
    expect(titles).toEqual(['Opioid Dependency', 'Heroin Addiction', 'Alcohol Recovery']);
  });
});
