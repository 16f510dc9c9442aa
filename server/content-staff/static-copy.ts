// A rendered page made safe to show inside the staff area or through a preview link: without its scripts (nothing of
// it runs: no hydration, no form posts), the response's nonce on its styles, `noindex`, and a banner first in the body
// that says what it is. One way for previews, history versions and the review's before and after.

/**
 * `html` with its scripts and preloads removed, `nonce` on its styles, noindex, and a sticky banner: `banner.html` (markup
 * the caller escaped) on `background`, the class `className`.
 */
export function staticCopy(
  html: string,
  nonce: string,
  banner: { className: string; background: string; html: string; extraCss?: string },
): string {
  const bar =
    `<style nonce="${nonce}">.${banner.className}{position:sticky;top:0;z-index:1000;background:${banner.background};` +
    `color:#fff;padding:.5rem 1rem;font:600 1rem/1.4 system-ui,sans-serif}${banner.extraCss ?? ''}</style>` +
    `<div class="${banner.className}" role="status">${banner.html}</div>`;
  return html
    .replace(/<script\b[^>]*>[\s\S]*?<\/script>/gi, '')
    .replace(/<link\b[^>]*rel="(?:modulepreload|preload|expect)"[^>]*>/gi, '')
    .replace(/<style\b/gi, `<style nonce="${nonce}"`)
    .replace(/<meta name="robots"[^>]*>/i, '')
    .replace(/<head>/i, '<head><meta name="robots" content="noindex, nofollow">')
    .replace(/(<body\b[^>]*>)/i, `$1${bar}`);
}
