// The names staff read for fields and block types, written once for everything that shows them: the studio's forms,
// outline, catalogue and conflict view, and `npm run validate`'s messages. Most come from the property name in plain
// words (trustPoints is "Trust points"); the ones below read like code that way ("Href", "Changefreq", "cta-band").
// Kept here rather than as schema `title`s: those name the generated TypeScript types. Pure and browser-safe.

const FIELD_LABELS: Readonly<Record<string, string>> = {
  href: 'Link',
  tel: 'Phone link',
  url: 'Web address',
  changefreq: 'How often it changes',
  lastmod: 'Last changed',
  priority: 'Search priority',
  canonical: 'Canonical link (the page search engines should show)',
  robots: 'Search engine indexing',
  meta: 'Search result details',
  sitemap: 'Sitemap entry',
  id: 'Anchor (section name in the address)',
  aliases: 'Other anchor names',
  formId: 'Form',
  consultationFormId: 'Consultation form',
  insuranceFormId: 'Insurance form',
  secondFormId: 'Second form',
  pii: 'Personal data kind',
  honeypot: 'Spam trap field',
  autocomplete: 'Browser autofill',
  available247: 'Available 24/7',
  addressCountry: 'Country',
  addressRegion: 'State',
  maxLength: 'Most characters',
  maxLinks: 'Most links shown',
  structuredData: 'Search engine data',
  successRate: 'Success rate',
  promiseMinutes: 'Call-back promise (minutes)',
  priceValidityDays: 'Price valid for (days)',
  showAfterScroll: 'Show after scrolling',
  itemMarker: 'List marker',
  defaultColorScheme: 'Default color scheme',
  cta: 'Call to action',
};

const BLOCK_LABELS: Readonly<Record<string, string>> = {
  'cta-band': 'Call-to-action band',
  faq: 'Questions and answers',
  'rich-text': 'Text',
  'link-cards': 'Link cards',
  'card-grid': 'Cards',
  'protocol-cards': 'Treatment protocols',
  'related-programs': 'Related programs',
  'warning-box': 'Warning',
  'contact-list': 'Contact list',
  stats: 'Figures',
  breadcrumb: 'Breadcrumb trail',
};

/** Plain words for a property name: trustPoints is "Trust points", href is "Link". */
export function fieldLabel(name: string): string {
  return (
    FIELD_LABELS[name] ??
    name
      .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
      .replace(/[-_]/g, ' ')
      .toLowerCase()
      .replace(/^./, (c) => c.toUpperCase())
  );
}

/** Plain words for a block type: cta-band is "Call-to-action band". */
export function blockTypeLabel(type: string): string {
  return BLOCK_LABELS[type] ?? fieldLabel(type);
}
