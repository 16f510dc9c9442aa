// The build's side of the Content-Security-Policy: the prerendered pages carry inline scripts (Mantine's
// colour-scheme script, TanStack Router's hydration data and stream scripts), which a policy without
// 'unsafe-inline' allows only by their hashes. The prerender computes them once per page and writes them beside the
// pages; the server (server/http/static-pages.ts) sends each page's policy with its own hashes.
import { createHash } from 'node:crypto';

/**
 * Beside the pages in the build, under a dot-name so the static server never serves it (it ignores dot-files):
 * `{ "index.html": ["'sha256-…'", …], "404.html": [...] }`, keyed by the page's file relative to the build, with
 * forward slashes.
 */
export const CSP_HASHES_FILE = '.csp.json';

export type CspHashes = Record<string, string[]>;

// A script element's text is raw text in HTML: no entities, and it ends at the first `</script`, so the characters
// between the tags are exactly what the browser hashes.
const INLINE_SCRIPT = /<script\b([^>]*)>([\s\S]*?)<\/script\s*>/gi;
const HAS_SRC = /(?:^|\s)src\s*=/i;

/** The `'sha256-…'` source of one script's text, as CSP spells it. */
export const scriptHash = (text: string): string =>
  `'sha256-${createHash('sha256').update(text, 'utf8').digest('base64')}'`;

/**
 * The hash sources of every inline script of a page, in document order without repeats. Data blocks such as
 * JSON-LD are included too: they never run, so allowing them costs nothing, and the list then means exactly "every
 * inline script", which the tests check.
 */
export function inlineScriptHashes(html: string): string[] {
  const hashes = new Set<string>();
  for (const [, attributes = '', text = ''] of html.matchAll(INLINE_SCRIPT)) {
    if (HAS_SRC.test(attributes)) continue;
    hashes.add(scriptHash(text));
  }
  return [...hashes];
}
