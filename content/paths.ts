// Where things are. Two roots: the code's own (the schemas, the blocks, generated/), fixed by where this file is;
// and a content root (pages/ and site/), a parameter, so any set of documents can be checked, not only the
// checkout's. The command lines pass the checkout, ROOT, as the content root.
// Node-only.
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The checkout this code runs from: the code root, and the content root the command lines default to. */
export const ROOT = join(dirname(fileURLToPath(import.meta.url)), '..');
export const BLOCKS_DIR = join(ROOT, 'blocks');
export const GENERATED_DIR = join(ROOT, 'generated');
export const SCHEMAS_DIR = join(ROOT, 'schemas');

/** Where the content documents under `root` live. */
export type ContentPaths = {
  root: string;
  pagesDir: string;
  siteFile: string;
  formsDir: string;
  programsFile: string;
  redirectsFile: string;
};

/** The content documents' places under a content root. */
export function contentPaths(root: string): ContentPaths {
  return {
    root,
    pagesDir: join(root, 'pages'),
    siteFile: join(root, 'site', 'site.json'),
    formsDir: join(root, 'site', 'forms'),
    programsFile: join(root, 'site', 'programs.json'),
    redirectsFile: join(root, 'site', 'redirects.json'),
  };
}
