import { DEFERRED_CSS_ATTRIBUTE, deferredCssHref } from '../styles/deferred-css.ts';

/**
 * The page's whole stylesheet, linked after its first screen: Chromium paints the header and first block with the
 * critical CSS of the head at once, and nothing after this link until the stylesheet is in, so no block is seen
 * unstyled (core/critical-css.ts). Without `precedence`, React keeps the link where it is rendered.
 */
export function DeferredStylesheet() {
  const href = deferredCssHref();
  if (!href) return null;
  return <link rel="stylesheet" href={href} {...{ [DEFERRED_CSS_ATTRIBUTE]: '' }} />;
}
