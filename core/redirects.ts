// The redirect table as rules both sides use: the server answers 301, the client router replaces the history entry,
// and the build writes the same rules for static hosts (and nginx: server/http/nginx-site.ts).
import type { RedirectTable } from '../generated/content-types.ts';

export type RedirectRule = { from: string; to: string };

/** Every source address with its target; each source also answers with a trailing slash. */
export function redirectRules(table: RedirectTable): RedirectRule[] {
  return table.redirects.flatMap((rule) => rule.from.map((from) => ({ from, to: rule.to })));
}

/** The target of a request path (with or without a trailing slash), if it is redirected. */
export function redirectTarget(rules: readonly RedirectRule[], path: string): string | undefined {
  const bare = path.length > 1 ? path.replace(/\/+$/, '') : path;
  return rules.find((rule) => rule.from === bare)?.to;
}

/** `_redirects` for Netlify, Cloudflare Pages and similar hosts. */
export function netlifyRedirects(rules: RedirectRule[]): string {
  return rules.flatMap(({ from, to }) => [`${from} ${to} 301`, `${from}/ ${to} 301`]).join('\n') + '\n';
}
