// A content root of its own for a test that publishes: the checkout's pages/ and site/ copied to a folder, and the
// home page's heading changed to a marker, so the test tells one release's pages from another's by what they say.
import { cpSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { ROOT } from '../../content/paths.ts';

/** Copies the checkout's content documents to `dir`, which becomes a content root. */
export function copyContent(dir: string): string {
  for (const folder of ['pages', 'site']) cpSync(join(ROOT, folder), join(dir, folder), { recursive: true });
  return dir;
}

/** Sets the home page's hero heading (its first block) to `heading`. */
export function setHomeHeading(root: string, heading: string): void {
  const file = join(root, 'pages', 'index.json');
  const page = JSON.parse(readFileSync(file, 'utf8')) as { blocks: { heading?: string }[] };
  page.blocks[0]!.heading = heading;
  writeFileSync(file, `${JSON.stringify(page, null, 2)}\n`);
}

/** The heading of the home page's hero in a served page, as the visitor reads it. */
export const heroHeading = (html: string): string | undefined =>
  /<h1\b[^>]*>([\s\S]*?)<\/h1>/.exec(html)?.[1];
