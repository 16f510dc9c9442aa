import type { Program, RelatedProgramsBlock } from '../../generated/content-types.ts';

/** Cards the block shows: one row on a wide screen. Its schema's picks hold exactly this many. */
export const RELATED_COUNT = 3;
const OF_SAME_CATEGORY = 2;

export type RelatedQuery = {
  category: RelatedProgramsBlock['category'];
  currentPath: string;
  prefer?: string[];
  picks?: string[];
};

/**
 * The programs a page shows. Picked paths, when given, as they are. Otherwise the general rule: two of the page's
 * category and one of another, never the page itself, preferred paths first, then the catalogue's own order; a
 * program without a category counts as another category's.
 */
export function relatedPrograms(
  catalogue: Program[],
  { category, currentPath, prefer = [], picks }: RelatedQuery,
): Program[] {
  // Validation keeps every pick in the catalogue and off the page itself.
  if (picks) return picks.flatMap((path) => catalogue.filter((program) => program.path === path));
  const rank = (program: Program) => {
    const at = prefer.indexOf(program.path);
    return at === -1 ? prefer.length + catalogue.indexOf(program) : at;
  };
  const candidates = catalogue
    .filter((program) => program.path !== currentPath)
    .sort((a, b) => rank(a) - rank(b));
  const same = candidates.filter((program) => program.category === category).slice(0, OF_SAME_CATEGORY);
  const other = candidates
    .filter((program) => program.category !== category)
    .slice(0, RELATED_COUNT - OF_SAME_CATEGORY);
  return [...same, ...other];
}
