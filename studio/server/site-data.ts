// The site's own documents the editor and its previews render with (site.json, the forms, the catalogue, the
// redirects), read from the checkout when the editor opens rather than bundled into it: a malformed one (a `git pull`
// conflict) must not stop the editor from building or blank it. A document that is not valid JSON is replaced by the
// last version this studio read of it (else its last committed one) and named, so the rest keeps working while the
// file list shows it as broken.
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { ROOT } from '../../content/paths.ts';
import { siteUrlFrom } from '../../core/site-url.ts';
import { CONTENT } from './documents.ts';

/** The last valid value read of each document, by path. */
const lastGood = new Map<string, unknown>();

/** A document's value; a malformed one's last good or committed value (undefined when there is none). */
function readOrCommitted(file: string, broken: string[]): unknown {
  try {
    const value: unknown = JSON.parse(readFileSync(file, 'utf8'));
    lastGood.set(file, value);
    return value;
  } catch {
    const name = relative(ROOT, file).split('\\').join('/');
    broken.push(name);
    if (lastGood.has(file)) return lastGood.get(file);
    try {
      return JSON.parse(execFileSync('git', ['show', `HEAD:${name}`], { cwd: ROOT, encoding: 'utf8' }));
    } catch {
      return undefined;
    }
  }
}

/** The site data, as renderer/site-data.ts installs it, and which documents could not be read as they are. */
export function studioSiteData() {
  const broken: string[] = [];
  const site = readOrCommitted(CONTENT.siteFile, broken) as { url?: string } | undefined;
  const forms = existsSync(CONTENT.formsDir)
    ? Object.fromEntries(
        readdirSync(CONTENT.formsDir)
          .filter((f) => f.endsWith('.json'))
          .map((f) => [f.replace(/\.json$/, ''), readOrCommitted(join(CONTENT.formsDir, f), broken)])
          .filter(([, definition]) => definition !== undefined),
      )
    : {};
  return {
    site,
    siteUrl: site?.url ? siteUrlFrom(process.env.SITE_URL, site.url) : undefined,
    forms,
    programs: readOrCommitted(CONTENT.programsFile, broken),
    redirects: readOrCommitted(CONTENT.redirectsFile, broken),
    broken,
  };
}
