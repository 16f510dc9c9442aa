// Runs one of the project's TypeScript commands as a process of its own from any folder (a test's content root, a
// benchmark's copy): `--import tsx` names the loader by its path, since a folder outside the checkout has no
// node_modules to find `tsx` in.
import {
  spawn,
  type ChildProcessWithoutNullStreams,
  type SpawnOptionsWithoutStdio,
} from 'node:child_process';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { ROOT } from '../../content/paths.ts';

const TSX_LOADER = pathToFileURL(createRequire(join(ROOT, 'package.json')).resolve('tsx')).href;

/** Starts `node --import tsx <ROOT>/<script> ...args` with stdout and stderr piped. */
export const spawnScript = (
  script: string,
  args: readonly string[],
  options: SpawnOptionsWithoutStdio,
): ChildProcessWithoutNullStreams =>
  spawn(process.execPath, ['--import', TSX_LOADER, join(ROOT, script), ...args], options);
