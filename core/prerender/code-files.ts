// Which files of a built client folder are code (what Vite wrote: hashed assets, the manifest, the public files, and
// their compressed copies), as opposed to what a prerender wrote beside them (pages, data, sitemap). The build lists
// them once; a prerender copies exactly those into a new site, whether it is given `.build/` or a whole `dist/`.
import {
  copyFileSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  readdirSync,
  writeFileSync,
} from 'node:fs';
import { dirname, join, relative, sep } from 'node:path';

/** The list, inside the client folder (a dot-folder: the server never serves it). */
export const CODE_FILES_LIST = '.vite/code-files.json';

/** Lists every file now in `clientDir` as its code (run by the build right after Vite and compression). */
export function writeCodeFilesList(clientDir: string): string[] {
  const files = readdirSync(clientDir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(clientDir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .filter((file) => file !== CODE_FILES_LIST)
    .sort();
  writeFileSync(join(clientDir, CODE_FILES_LIST), `${JSON.stringify(files, null, 1)}\n`);
  return files;
}

/** The code files of `clientDir`; throws if it was not listed by a build. */
export function codeFiles(clientDir: string): string[] {
  const list = join(clientDir, CODE_FILES_LIST);
  if (!existsSync(list))
    throw new Error(`${clientDir} is not a built client folder (no ${CODE_FILES_LIST}): run npm run build`);
  return JSON.parse(readFileSync(list, 'utf8')) as string[];
}

/** Copies the code files of `fromClientDir` (and their list) into `toDir`. */
export function copyCodeFiles(fromClientDir: string, toDir: string): number {
  const files = [...codeFiles(fromClientDir), CODE_FILES_LIST];
  const made = new Set<string>();
  for (const file of files) {
    const target = join(toDir, file);
    const folder = dirname(target);
    if (!made.has(folder)) {
      mkdirSync(folder, { recursive: true });
      made.add(folder);
    }
    // A copy-on-write clone where the file system offers it, a plain copy elsewhere.
    copyFileSync(join(fromClientDir, file), target, constants.COPYFILE_FICLONE);
  }
  return files.length;
}
