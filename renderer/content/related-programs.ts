import type { Program } from '../../generated/content-types.ts';

export type RelatedQuery = { category: Program['category']; currentPath: string; prefer?: string[] };

/**
 * Up to three programs: two of the page's category and one of another, never the page itself. Preferred paths
 * come first, then the catalogue's own order.
 */
export function relatedPrograms(
  catalogue: Program[],
  { category, currentPath, prefer = [] }: RelatedQuery,
): Program[] {
  const rank = (program: Program) => {
    const at = prefer.indexOf(program.path);
    return at === -1 ? prefer.length + catalogue.indexOf(program) : at;
  };
  const candidates = catalogue
    .filter((program) => program.path !== currentPath)
    .sort((a, b) => rank(a) - rank(b));
  const same = candidates.filter((program) => program.category === category).slice(0, 2);
  const other = candidates.filter((program) => program.category !== category).slice(0, 1);
  return [...same, ...other];
}
