import { describe, expect, it } from 'vitest';
import { RELATED_COUNT, relatedPrograms } from './related-programs.ts';
import schema from '../../blocks/related-programs/schema.json' with { type: 'json' };
import tramadol from '../../pages/treatment/tramadol-addiction.json' with { type: 'json' };
import type { Page, Program } from '../../generated/content-types.ts';
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

  it('shows picks as they are, in their order, instead of the general rule', () => {
    const related = relatedPrograms(programs, {
      category: 'opioid',
      currentPath: '/treatment/tramadol-addiction',
      prefer: ['/treatment/heroin-addiction'],
      picks: ['/treatment/opioid-dependency', '/treatment/prescription-drugs', '/services/medical-detox'],
    });
    expect(related.map((program) => program.title)).toEqual([
      'Opioid Dependency',
      'Prescription Drugs',
      'Medical Detox',
    ]);
  });

  it('shows opioid dependency, prescription drugs and medical detox on the Tramadol page', () => {
    const page = tramadol as unknown as Page;
    const block = page.blocks.find((b) => b.type === 'related-programs');
    if (block?.type !== 'related-programs') throw new Error('the Tramadol page has no related programs');
    expect(block.picks).toBeDefined();
    const related = relatedPrograms(programs, { ...block, currentPath: '/treatment/tramadol-addiction' });
    expect(paths(related)).toEqual([
      '/treatment/opioid-dependency',
      '/treatment/prescription-drugs',
      '/services/medical-detox',
    ]);
  });

  it('counts a program without a category as another category, offered where it is preferred', () => {
    const everyKind: Program = {
      title: 'Medical Detox',
      description: 'Supervised withdrawal from any substance.',
      path: '/services/medical-detox',
    };
    const catalogue = [...programs.filter((program) => program.path !== everyKind.path), everyKind];
    const query = { category: 'alcohol', currentPath: '/treatment/alcohol-addiction' } as const;
    expect(paths(relatedPrograms(catalogue, query))).not.toContain(everyKind.path);
    expect(paths(relatedPrograms(catalogue, { ...query, prefer: [everyKind.path] }))).toEqual([
      '/treatment/alcohol-recovery',
      '/services/medical-detox',
    ]);
  });

  it('holds as many picks as the row has cards', () => {
    expect(schema.properties.picks.minItems).toBe(RELATED_COUNT);
    expect(schema.properties.picks.maxItems).toBe(RELATED_COUNT);
  });
});
