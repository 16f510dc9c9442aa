import { describe, expect, it } from 'vitest';
import { relatedPrograms } from './related-programs.ts';
import type { Program } from '../../generated/content-types.ts';
import catalogue from '../../site/programs.json' with { type: 'json' };

const programs = catalogue.programs as Program[];
const paths = (list: Program[]) => list.map((program) => program.path);

describe('relatedPrograms', () => {
  it('gives two of the same category and one of another, in catalogue order', () => {
    const related = relatedPrograms(programs, {
      category: 'benzodiazepine',
      currentPath: '/treatment/valium-addiction',
    });
    expect(paths(related)).toEqual([
      '/treatment/benzodiazepine-addiction',
      '/treatment/xanax-addiction',
      '/treatment/opioid-dependency',
    ]);
    expect(related.filter((program) => program.category === 'benzodiazepine')).toHaveLength(2);
  });

  it('never includes the current page', () => {
    const related = relatedPrograms(programs, {
      category: 'benzodiazepine',
      currentPath: '/treatment/benzodiazepine-addiction',
    });
    expect(paths(related)).not.toContain('/treatment/benzodiazepine-addiction');
    expect(paths(related)).toEqual(['/treatment/xanax-addiction', '/treatment/opioid-dependency']);
  });

  it('puts preferred paths first', () => {
    const related = relatedPrograms(programs, {
      category: 'opioid',
      currentPath: '/treatment/tramadol-addiction',
      prefer: ['/treatment/opioid-dependency', '/treatment/prescription-drugs'],
    });
    expect(paths(related)).toEqual([
      '/treatment/opioid-dependency',
      '/treatment/prescription-drugs',
      '/treatment/alcohol-recovery',
    ]);
  });

  it('returns at most three', () => {
    for (const category of ['opioid', 'alcohol', 'benzodiazepine', 'stimulant'] as const)
      expect(relatedPrograms(programs, { category, currentPath: '/' }).length).toBeLessThanOrEqual(3);
  });
});
