// Where the studio's Vite keeps its optimized dependencies for one checkout: outside it, one folder per checkout, so
// copies of the repository that share node_modules (tests, the benchmark) never invalidate each other's.
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const studioCacheDir = (repository: string): string =>
  join(
    tmpdir(),
    `studio-vite-${createHash('sha256').update(resolve(repository)).digest('hex').slice(0, 12)}`,
  );
