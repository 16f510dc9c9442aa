// Who last changed a document, in words for the person whose save it stopped: the last commit's author when the file
// on disk is what git committed, else only that it changed on disk and when (an edit nobody has committed yet has no
// name we could honestly give).
import { execFileSync } from 'node:child_process';
import { statSync } from 'node:fs';
import { ROOT } from '../../content/paths.ts';

const git = (root: string, args: string[]): string | undefined => {
  try {
    return execFileSync('git', args, {
      cwd: root,
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    }).trim();
  } catch {
    return undefined; // Not a git checkout, or git is not installed: the time on disk is all there is.
  }
};

/** "Maya Chen (committed Nov 28, 2026, 5:10 AM)" or "changed on disk at 05:12:40". `file`: relative to `root`. */
export function changedBy(file: string, absolute: string, root = ROOT): string {
  const dirty = git(root, ['status', '--porcelain', '--', file]);
  if (dirty === '') {
    const last = git(root, ['log', '-1', '--format=%an%x00%aI', '--', file]);
    const [author, when] = last?.split('\0') ?? [];
    if (author && when)
      return `${author} (committed ${new Date(when).toLocaleString('en-US', { dateStyle: 'medium', timeStyle: 'short' })})`;
  }
  try {
    return `changed on disk at ${statSync(absolute).mtime.toLocaleTimeString('en-US', { hour12: false })}`;
  } catch {
    return 'removed from disk';
  }
}
