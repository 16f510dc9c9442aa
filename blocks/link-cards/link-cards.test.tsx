import { describe, expect, it } from 'vitest';
import { LinkCardsBlock } from './component.tsx';
import type { LinkCardsBlock as LinkCards } from '../../generated/content-types.ts';
import { renderToHtml, visibleText } from '../../tests/helpers/render-to-html.tsx';

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

describe('link-cards', () => {
  it('shows the first three links, a "+N more" note and Learn More to the first link', async () => {
    const html = await renderToHtml(
      <LinkCardsBlock block={block([{ title: 'Opioids', text: 'About opioids.', links: links(7) }])} />,
    );
    const text = visibleText(html);
    expect(text).toContain('Treatment 1 Treatment 2 Treatment 3');
    expect(text).not.toContain('Treatment 4');
    expect(text).toContain('+4 more treatments');
    const learnMore = /<a [^>]*href="\/treatment\/t-1"[^>]*>((?:(?!<\/a>)[\s\S])*)<\/a>/g;
    const texts = [...html.matchAll(learnMore)].map((m) => visibleText(m[1] ?? ''));
    expect(texts).toContain('Learn More : Opioids');
  });

  it('has no note when every link fits, and honours maxLinks', async () => {
    const fits = visibleText(
      await renderToHtml(
        <LinkCardsBlock block={block([{ title: 'Alcohol', text: 'About alcohol.', links: links(3) }])} />,
      ),
    );
    expect(fits).not.toContain('more treatments');
    const two = visibleText(
      await renderToHtml(
        <LinkCardsBlock block={block([{ title: 'Alcohol', text: 'About alcohol.', links: links(3) }], 2)} />,
      ),
    );
    expect(two).toContain('+1 more treatments');
  });
});
