// Warnings (never errors) about how pages will look in search results: a title or description that another page also
// uses, or one longer or shorter than what search engines show. The schema bounds what is allowed at all (title
// 10-70 characters, description 50-200); these ranges are what is shown in full, which is a judgement call per page.
// Pure: `npm run validate` prints them (scripts/lib/seo-lint.ts), the studio shows them at their fields.

/**
 * Characters, as the usual guidance puts them: Google cuts titles at about 600 px (50-60 characters) and descriptions
 * at about 920 px on a desktop (about 155-160 characters); much shorter ones waste the space and tend to be rewritten.
 */
export const SEO_LENGTHS = {
  title: { min: 30, max: 60 },
  description: { min: 70, max: 160 },
} as const;

/** A page's title and description; `file` is repository-relative, with forward slashes. */
export type SeoFields = { file: string; title: string; description: string };
export type SeoWarning = { file: string; pointer: '/title' | '/description'; message: string };

/** Every warning about the pages' titles and descriptions, in file order. */
export function seoWarningsOf(pages: readonly SeoFields[]): SeoWarning[] {
  const warnings: SeoWarning[] = [];
  // Compared as search results show them: case and runs of spaces do not make two titles different.
  const key = (text: string) => text.trim().replace(/\s+/g, ' ').toLowerCase();
  const owners = { title: new Map<string, string[]>(), description: new Map<string, string[]>() };
  for (const page of pages)
    for (const field of ['title', 'description'] as const) {
      const files = owners[field].get(key(page[field])) ?? [];
      owners[field].set(key(page[field]), [...files, page.file]);
    }
  for (const page of [...pages].sort((a, b) => a.file.localeCompare(b.file)))
    for (const field of ['title', 'description'] as const) {
      const warn = (message: string) => warnings.push({ file: page.file, pointer: `/${field}`, message });
      const text = page[field].trim();
      const { min, max } = SEO_LENGTHS[field];
      if (text.length > max) warn(`${field} is ${text.length} characters; search results show about ${max}`);
      else if (text.length < min)
        warn(`${field} is ${text.length} characters; aim for ${min}-${max} to use the space`);
      const others = (owners[field].get(key(text)) ?? []).filter((file) => file !== page.file);
      if (others.length) warn(`same ${field} as ${others.join(', ')}; each page needs its own`);
    }
  return warnings;
}
