// Where the page's whole stylesheet is linked: after the first screen (core/critical-css.ts says why). The server's
// render does not know the stylesheet's hashed name, the client build's; it writes a placeholder that the prerender
// replaces (core/first-screen.ts). The client reads the name from the page it hydrates, so its render is the server's.

/** What the server render writes as the stylesheet's address; never reaches a visitor. */
export const DEFERRED_CSS_PLACEHOLDER = '/assets/deferred-stylesheet.css';

/** The attribute that marks the link, for the client to find it. */
export const DEFERRED_CSS_ATTRIBUTE = 'data-deferred-css';

let fromPage: string | null | undefined;

/**
 * The address of the whole stylesheet: the placeholder on the server, the page's own link on the client (null on a
 * page without one, the not-found page, whose head holds all of its CSS).
 */
export function deferredCssHref(): string | null {
  if (typeof document === 'undefined') return DEFERRED_CSS_PLACEHOLDER;
  fromPage ??= document.querySelector(`link[${DEFERRED_CSS_ATTRIBUTE}]`)?.getAttribute('href') ?? null;
  return fromPage;
}
