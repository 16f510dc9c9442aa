// A release's content documents, read from and written to a content root (pages/ and site/, as in a checkout):
// what `npm run content -- publish` stores, what a code deploy rebuilds, what `show` and staff history read.
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  readdirSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative, sep } from 'node:path';
import type { ReleaseDocument } from '../store/contract/release-store.ts';

/** The folders of a content root that hold documents. */
const CONTENT_FOLDERS = ['pages', 'site'] as const;

/** Every JSON document under `root`'s pages/ and site/, by its `/`-separated path from `root`, sorted. */
export function readDocuments(root: string): ReleaseDocument[] {
  const documents: ReleaseDocument[] = [];
  for (const folder of CONTENT_FOLDERS) {
    const dir = join(root, folder);
    if (!existsSync(dir)) continue;
    for (const entry of readdirSync(dir, { recursive: true, withFileTypes: true })) {
      if (!entry.isFile() || !entry.name.endsWith('.json')) continue;
      const file = join(entry.parentPath, entry.name);
      documents.push({ path: relative(root, file).split(sep).join('/'), text: readFileSync(file, 'utf8') });
    }
  }
  return documents.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
}

/** Writes `documents` under `root` (a temporary content root to build from, or a checkout). */
export function writeDocuments(root: string, documents: readonly ReleaseDocument[]): void {
  for (const { path, text } of documents) {
    if (!/^(pages|site)\/[^\0]+\.json$/.test(path) || path.split('/').includes('..'))
      throw new Error(`a release document has an unexpected path: ${path}`);
    const file = join(root, ...path.split('/'));
    mkdirSync(dirname(file), { recursive: true });
    writeFileSync(file, text);
  }
}

/**
 * Writes `documents` to a temporary content root, runs `use` on it, and removes it once `use` is done: when it returns,
 * or when its promise settles. `outDir`, beside the root and removed with it, is for what is made from it (a build).
 * The content API's checks, indexes and previews and a release's build all read the site this way: the content model
 * (content/) reads documents from folders.
 */
export function withContentRoot<T>(
  documents: readonly ReleaseDocument[],
  use: (root: string, outDir: string) => T,
): T {
  const work = mkdtempSync(join(tmpdir(), 'content-root-'));
  const remove = () => rmSync(work, { recursive: true, force: true });
  let result: T;
  try {
    const root = join(work, 'content');
    writeDocuments(root, documents);
    result = use(root, join(work, 'site'));
  } catch (error) {
    remove();
    throw error;
  }
  if (!(result instanceof Promise)) {
    remove();
    return result;
  }
  // An async `use`: the folder lives until its promise settles. The promise is T itself, with the same value.
  return result.finally(remove) as T;
}

/** What writing `documents` into a checkout over its own documents `current` changes, by path. */
export function checkoutChanges(current: readonly ReleaseDocument[], documents: readonly ReleaseDocument[]) {
  const was = documentMap(current);
  const now = documentMap(documents);
  return {
    added: [...now.keys()].filter((path) => !was.has(path)),
    changed: [...now.keys()].filter((path) => was.has(path) && was.get(path) !== now.get(path)),
    removed: [...was.keys()].filter((path) => !now.has(path)),
  };
}

/** The documents as a map from path to text. */
export const documentMap = (documents: readonly ReleaseDocument[]): Map<string, string> =>
  new Map(documents.map(({ path, text }) => [path, text]));
