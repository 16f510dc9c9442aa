// The kinds of content document and where each lives, by its path relative to the content root.
// Pure and browser-safe: the studio's client names documents with it too.

/** The kinds of content document, each checked against its own schema. */
export const DOCUMENT_KINDS = ['page', 'site', 'form', 'programs', 'redirects'] as const;
export type DocumentKind = (typeof DOCUMENT_KINDS)[number];

/** Which schema a content file follows, from its path relative to the content root (forward slashes). */
export function kindOf(rel: string): DocumentKind | undefined {
  if (rel.startsWith('pages/') && rel.endsWith('.json')) return 'page';
  if (rel === 'site/site.json') return 'site';
  if (/^site\/forms\/[^/]+\.json$/.test(rel)) return 'form';
  if (rel === 'site/programs.json') return 'programs';
  if (rel === 'site/redirects.json') return 'redirects';
  return undefined;
}
