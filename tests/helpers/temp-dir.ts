// The tests' one temporary folder: made fresh before each test of the file that asks for it, removed after it, even
// when the test fails. A test reads the folder's path by calling the function it got (the path changes per test).
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach } from 'vitest';

/** Registers a folder for each test of the calling `describe` (or file); returns the current test's path. */
export function useTempDir(prefix = 'test-'): () => string {
  let dir: string | undefined;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), prefix));
  });
  afterEach(() => {
    if (dir) rmSync(dir, { recursive: true, force: true });
    dir = undefined;
  });
  return () => {
    if (!dir) throw new Error('useTempDir: the folder exists only while a test runs');
    return dir;
  };
}
