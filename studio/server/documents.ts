// The documents the studio may open and write: pages under pages/ and the site's own documents under site/. A name
// is always a repository-relative path; anything that resolves elsewhere is refused before a file is touched.
import { createHash } from 'node:crypto';
import { existsSync, readFileSync, readdirSync, realpathSync } from 'node:fs';
import { dirname, join, normalize, relative, sep } from 'node:path';
import { documentTitle } from '../../content/document-titles.ts';
import { kindOf, type DocumentKind } from '../../content/kinds.ts';
import { ROOT, contentPaths } from '../../content/paths.ts';
import { pagePath } from '../../core/page-paths.ts';
import { lineColumn, syntaxProblem } from '../../content/validate/json-positions.ts';

/** `broken`: the file is not valid JSON (a `git pull` conflict, a hand edit): the validator's message and place. */
export type Broken = { message: string; line: number; column: number };
export type StudioFile = { file: string; kind: DocumentKind; path?: string; title: string; broken?: Broken };

/** The documents the studio edits: the checkout's. */
export const CONTENT = contentPaths(ROOT);

/** Where the studio may write: nowhere but these folders. */
const WRITABLE = ['pages', 'site'];

export const versionOf = (text: string): string => createHash('sha256').update(text).digest('hex');

const toPosix = (p: string) => p.split(sep).join('/');

/**
 * The absolute path of a studio document named by its repository path, or undefined when the name is not a content
 * document inside pages/ or site/ (a `..`, an absolute path, a symbolic link out, or not a document the validator
 * knows).
 */
export function documentPath(name: unknown): string | undefined {
  if (typeof name !== 'string' || name === '' || name.includes('\0') || name.includes('\\')) return undefined;
  if (name.startsWith('/') || name.split('/').some((part) => part === '..' || part === '.' || part === ''))
    return undefined;
  const absolute = join(ROOT, normalize(name));
  const rel = toPosix(relative(ROOT, absolute));
  if (rel !== name || !WRITABLE.includes(rel.split('/')[0] ?? '')) return undefined;
  if (!kindOf(rel)) return undefined;
  // A symbolic link inside pages/ must not lead a write out of it: the nearest existing folder must be inside too.
  let existing = dirname(absolute);
  while (!existsSync(existing)) existing = dirname(existing);
  const real = toPosix(relative(realpathSync(ROOT), realpathSync(existing)));
  if (real.startsWith('..') || !WRITABLE.includes(real.split('/')[0] ?? '')) return undefined;
  return absolute;
}

/** The document's value, or where its text stops being JSON (with the build's own wording). */
export function readJson(file: string): { data: unknown } | { broken: Broken } {
  let text = '';
  try {
    text = readFileSync(file, 'utf8');
    return { data: JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) };
  } catch (error) {
    const { pos, message } = syntaxProblem(text, error);
    return { broken: { message, ...lineColumn(text)(pos) } };
  }
}

/** Every document the studio edits, pages first (sorted by path), then the site's documents. */
export function listDocuments(): StudioFile[] {
  const list: StudioFile[] = [];
  for (const folder of WRITABLE) {
    const dir = join(ROOT, folder);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true, encoding: 'utf8' })) {
      const file = `${folder}/${toPosix(entry)}`;
      const absolute = join(ROOT, file);
      const kind = file.endsWith('.json') ? kindOf(file) : undefined;
      if (!kind) continue;
      const read = readJson(absolute);
      const data = 'data' in read ? read.data : undefined;
      const broken = 'broken' in read ? { broken: read.broken } : {};
      if (kind === 'page') {
        const path = pagePath(file);
        list.push({ file, kind, path, title: documentTitle(file, data), ...broken });
      } else list.push({ file, kind, title: documentTitle(file, data), ...broken });
    }
  }
  const rank = (f: StudioFile) => (f.kind === 'page' ? 0 : 1);
  return list.sort((a, b) => rank(a) - rank(b) || (a.path ?? a.file).localeCompare(b.path ?? b.file));
}
