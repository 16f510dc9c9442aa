// The tests' one temporary folder: made fresh before each test of the file that asks for it, removed after it, even
// when the test fails. A test reads the folder's path by calling the function it got (the path changes per test).
// A file (or `describe`) whose tests share one folder, made before its first test and removed after its last, asks
// for it with useTempDirForAll instead.
//
// Hooks: vitest runs "after" hooks in the reverse of their order (sequence.hooks: 'stack'), so ask for the folder
// before registering anything that must stop first (a server started in it, a mount on it): its removal comes last.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, beforeEach } from 'vitest';

type Hooks = {
  before: (fn: () => void) => void;
  after: (fn: () => void) => void;
  name: string;
  when: string;
};

function register({ before, after, name, when }: Hooks, prefix: string): () => string {
  let dir: string | undefined;
  before(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  after(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error(`${name}: the folder exists only ${when}`);
    return dir;
  };
}

/** Registers a folder for each test of the calling `describe` (or file); returns the current test's path. */
export function useTempDir(prefix = 'test-'): () => string {
  const hooks = { before: beforeEach, after: afterEach, name: 'useTempDir', when: 'while a test runs' };
  return register(hooks, prefix);
}

/** Registers one folder for all the tests of the calling `describe` (or file); returns its path. */
export function useTempDirForAll(prefix = 'test-'): () => string {
  const hooks = {
    before: beforeAll,
    after: afterAll,
    name: 'useTempDirForAll',
    when: 'from its beforeAll on',
  };
  return register(hooks, prefix);
}
