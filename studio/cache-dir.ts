// Where the studio keeps its editor build and Vite's optimized dependencies: `.studio-cache/` in the checkout itself
// (git-ignored), one per checkout. Never in the shared temporary folder, where another user of the machine could
// create the folder first at its predictable name and have the studio serve their editor. The folder is made 0700,
// and used only while it is this user's own folder, a real folder (not a link), that no group or other user may write.
import { chmodSync, lstatSync, mkdirSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';

export const CACHE_FOLDER = '.studio-cache';

export const studioCacheDir = (repository: string): string => join(resolve(repository), CACHE_FOLDER);

/** Why the folder at `dir` cannot be trusted with the studio's build, or undefined when it can (or does not exist). */
export function untrustedCache(dir: string): string | undefined {
  let stats;
  try {
    stats = lstatSync(dir);
  } catch {
    return undefined;
  }
  if (!stats.isDirectory()) return `${dir} is not a folder (a link, or a file)`;
  if (process.getuid && stats.uid !== process.getuid()) return `${dir} belongs to another user`;
  if ((stats.mode & 0o022) !== 0) return `${dir} can be written by other users`;
  return undefined;
}

/**
 * The cache folder of `repository`, created 0700 when missing. One that other users may write is removed (what is
 * in it cannot be trusted) and made again; one that belongs to someone else, or is a link, is never touched: the studio
 * stops and says so.
 */
export function prepareStudioCache(repository: string): string {
  const dir = studioCacheDir(repository);
  const problem = untrustedCache(dir);
  if (problem) {
    const stats = lstatSync(dir);
    if (!stats.isDirectory() || (process.getuid && stats.uid !== process.getuid()))
      throw new Error(
        `The studio's cache is not safe to use: ${problem}. Remove it, then start the studio again.`,
      );
    // Ours, but writable by others: its content may have been replaced. rmSync unlinks links; it never follows them.
    rmSync(dir, { recursive: true, force: true });
  }
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  chmodSync(dir, 0o700);
  return dir;
}
