// The one list of block components. Adding a block: its folder under blocks/ and one line in each list below
// (`npm run new-block -- <name>` does both). The compiler rejects a block type without a component.
import type { BlockRegistry } from '../renderer/blocks/types.ts';
// blocks:imports
import { CardGridBlock } from './card-grid/component.tsx';
import { CtaBandBlock } from './cta-band/component.tsx';
import { FaqBlock } from './faq/component.tsx';
import { FormBlock } from './form/component.tsx';
import { HeroBlock } from './hero/component.tsx';
import { LinkCardsBlock } from './link-cards/component.tsx';
import { ProtocolCardsBlock } from './protocol-cards/component.tsx';
import { RichTextBlock } from './rich-text/component.tsx';
import { StatsBlock } from './stats/component.tsx';
import { TeamBlock } from './team/component.tsx';
import { TimelineBlock } from './timeline/component.tsx';

export const registry = {
  // blocks:entries
  'card-grid': CardGridBlock,
  'cta-band': CtaBandBlock,
  faq: FaqBlock,
  form: FormBlock,
  hero: HeroBlock,
  'link-cards': LinkCardsBlock,
  'protocol-cards': ProtocolCardsBlock,
  'rich-text': RichTextBlock,
  stats: StatsBlock,
  team: TeamBlock,
  timeline: TimelineBlock,
} satisfies BlockRegistry;
