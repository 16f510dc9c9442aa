// The one list of block components. Adding a block: its folder under blocks/ and one line in each list below
// (`npm run new-block -- <name>` does both). The compiler rejects a block type without a component.
import type { BlockRegistry } from './types.ts';
// blocks:imports
import { BreadcrumbBlock } from './breadcrumb/component.tsx';
import { CardGridBlock } from './card-grid/component.tsx';
import { ContactListBlock } from './contact-list/component.tsx';
import { CtaBandBlock } from './cta-band/component.tsx';
import { FaqBlock } from './faq/component.tsx';
import { FormBlock } from './form/component.tsx';
import { HeroBlock } from './hero/component.tsx';
import { LinkCardsBlock } from './link-cards/component.tsx';
import { ProtocolCardsBlock } from './protocol-cards/component.tsx';
import { RelatedProgramsBlock } from './related-programs/component.tsx';
import { RichTextBlock } from './rich-text/component.tsx';
import { StatsBlock } from './stats/component.tsx';
import { TableBlock } from './table/component.tsx';
import { TeamBlock } from './team/component.tsx';
import { TimelineBlock } from './timeline/component.tsx';
import { WarningBoxBlock } from './warning-box/component.tsx';

export const registry = {
  // blocks:entries
  breadcrumb: BreadcrumbBlock,
  'card-grid': CardGridBlock,
  'contact-list': ContactListBlock,
  'cta-band': CtaBandBlock,
  faq: FaqBlock,
  form: FormBlock,
  hero: HeroBlock,
  'link-cards': LinkCardsBlock,
  'protocol-cards': ProtocolCardsBlock,
  'related-programs': RelatedProgramsBlock,
  'rich-text': RichTextBlock,
  stats: StatsBlock,
  table: TableBlock,
  team: TeamBlock,
  timeline: TimelineBlock,
  'warning-box': WarningBoxBlock,
} satisfies BlockRegistry;
