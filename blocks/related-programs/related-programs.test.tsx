import { describe, expect, it } from 'vitest';
import { RelatedProgramsBlock } from './component.tsx';
import type { RelatedProgramsBlock as Related } from '../../generated/content-types.ts';
import { renderToHtml } from '../../tests/helpers/render-to-html.tsx';
import example from './example.json' with { type: 'json' };

/** The card headings and their links, in the order shown. */
async function cards(block: Related, path: string) {
  const html = await renderToHtml(<RelatedProgramsBlock block={block} />, path);
  return {
    titles: [...html.matchAll(/<h3[^>]*>([^<]+)<\/h3>/g)].map((match) => match[1]),
    links: [
      ...html.matchAll(
        /<a[^>]*class="card-link"[^>]*href="([^"]+)"|<a[^>]*href="([^"]+)"[^>]*class="card-link"/g,
      ),
    ].map((match) => match[1] ?? match[2]),
  };
}

describe('related-programs', () => {
  it('shows the picked programs, in their order, with links to them', async () => {
    const { titles, links } = await cards(example as Related, '/treatment/tramadol-addiction');
    expect(titles).toEqual(['Opioid Dependency', 'Prescription Drugs', 'Medical Detox']);
    expect(links).toEqual(example.picks);
  });

  it('chooses by the general rule when the page picks none', async () => {
    const general: Related = { ...(example as Related), picks: undefined };
    const { titles } = await cards(general, '/treatment/tramadol-addiction');
    expect(titles).toEqual(['Opioid Dependency', 'Heroin Addiction', 'Alcohol Recovery']);
  });
});
