// The order test files start in: the long ones first, so that the last minutes of a run are not one worker finishing
// a minute-long file while the other waits. Vitest orders by the durations it cached from earlier runs, which a clean
// clone (CI) does not have; without them it kept the order files were found in, and the two accessibility sweeps
// (a minute each) ran last, alone. A file that drives a browser, a studio, a benchmark or a PostgreSQL cluster takes
// seconds to a minute; the rest take milliseconds. Within each kind, the larger file first.
import { statSync } from 'node:fs';
import { relative } from 'node:path';
import { BaseSequencer, type TestSpecification } from 'vitest/node';

/** Path beginnings of the files that take longest, the longest kind first. */
const LONG_KINDS = [
  'tests/quality/',
  'scripts/benchmarks.test.ts',
  'tests/studio/',
  'tests/browser/',
  'tests/server/releases/',
  'tests/server/',
  'server/store/contract-tests/',
];

const kindOf = (file: string): number => {
  const index = LONG_KINDS.findIndex((start) => file.startsWith(start));
  return index === -1 ? LONG_KINDS.length : index;
};

export class LongestFirst extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    const root = this.ctx.config.root;
    const keyed = files.map((spec) => {
      const file = relative(root, spec.moduleId);
      return { spec, kind: kindOf(file), size: statSync(spec.moduleId).size };
    });
    return keyed.sort((a, b) => a.kind - b.kind || b.size - a.size).map(({ spec }) => spec);
  }
}
