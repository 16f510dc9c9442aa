// The prerender's last word on a page's CSS (docs/decisions/2026-11-28-first-screen-first-round-trip.md): the head
// keeps only the first screen's rules, and the link the page renders after its first screen
// (renderer/shell/DeferredStylesheet.tsx) gets the stylesheet's real, hashed address, cached for a year and shared
// by every page.
import type { ServerManifest } from '@tanstack/router-core';
import { criticalCss } from './critical-css.ts';
import { DEFERRED_CSS_PLACEHOLDER } from '../renderer/styles/deferred-css.ts';

/** The router's inline stylesheet in the head (TanStack Router's `inlineCss`). */
const INLINE_CSS = /(<style data-tsr-inline-css="[^"]*">)([\s\S]*?)(<\/style>)/;

/**
 * `html` (a page rendered with `manifest`, whose head inlines the client build's one stylesheet) with only the rules
 * of its first screen (all before the element whose id is `markerId`) inline and its deferred link pointing at the
 * stylesheet's file. A page without the link (the
 * not-found page) keeps the whole stylesheet inline: it is small and has no first block to wait for.
 */
export function deferStylesheet(html: string, manifest: ServerManifest, markerId: string): string {
  const link = `href="${DEFERRED_CSS_PLACEHOLDER}"`;
  if (!html.includes(link)) return html;
  const sheets = Object.entries(manifest.inlineCss?.styles ?? {});
  if (sheets.length !== 1 || !INLINE_CSS.test(html))
    throw new Error(
      `A page links its stylesheet after its first screen: the build must inline one, not ${sheets.length}`,
    );
  const [href, css] = sheets[0]!;
  const critical = criticalCss(css, html, markerId);
  return html
    .replace(INLINE_CSS, (_whole, open: string, _css: string, close: string) => `${open}${critical}${close}`)
    .replace(link, `href="${href}"`);
}
