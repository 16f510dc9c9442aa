// Which code a release was built with: `<package version>+<git commit>.<build hash>`. The build hash is of the
// render bundle and the client build's manifest (which names every hashed asset), so any change of the code that
// reaches visitors changes it, and a content change never does (content is data: neither bundle holds any). Two
// versions are the same code when their build hashes are equal: a new commit that builds the same bundles is the
// same code for visitors.
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../content/paths.ts';

const MANIFEST = join('client', '.vite', 'manifest.json');

/** The render bundle's folder in a built code folder (dist/ or .build/). */
const renderBundleDir = (codeDir: string) => join(codeDir, 'server');

/** Whether `codeDir` holds a render bundle and a client manifest: code that can build a release from content. */
export const canRender = (codeDir: string) =>
  existsSync(join(renderBundleDir(codeDir), 'entry-server.js')) && existsSync(join(codeDir, MANIFEST));

function gitCommit(): string {
  try {
    return execFileSync('git', ['rev-parse', '--short=12', 'HEAD'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'ignore'],
    })
      .toString()
      .trim();
  } catch {
    return 'nogit';
  }
}

/** The build hash of the code in `codeDir`; of its client files when it has no render bundle (a hand-made build). */
function buildHash(codeDir: string): string {
  const hash = createHash('sha256');
  const files = canRender(codeDir)
    ? [join(codeDir, MANIFEST), ...filesUnder(renderBundleDir(codeDir))]
    : filesUnder(join(codeDir, 'client'));
  for (const file of files.sort())
    hash.update(relative(codeDir, file)).update('\0').update(readFileSync(file));
  return hash.digest('hex').slice(0, 16);
}

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => join(entry.parentPath, entry.name));
}

export function codeVersionOf(codeDir: string): string {
  const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
  return `${version}+${gitCommit()}.${buildHash(codeDir)}`;
}

/** Whether two code versions built the same bundles. */
export const sameCode = (a: string, b: string) => a.slice(a.lastIndexOf('.')) === b.slice(b.lastIndexOf('.'));
