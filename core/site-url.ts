// The deployed origin of a site, checked: plain code the prerender (Node) and the renderer share.

/**
 * The site's origin for absolute URLs: `value` (the `SITE_URL` environment variable at prerender time) when set, else the
 * site document's `url`; without a trailing slash. Throws on anything but an absolute http(s) URL with no path, so a
 * typo fails the prerender instead of publishing broken canonical links.
 */
export function siteUrlFrom(value: string | undefined, fallback: string): string {
  const raw = value?.trim() || fallback;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new Error(`SITE_URL must be an absolute URL such as https://www.example.com, not "${raw}"`);
  }
  if (!/^https?:$/.test(url.protocol) || url.pathname !== '/' || url.search || url.hash)
    throw new Error(`SITE_URL must be an http(s) origin with no path, query or fragment, not "${raw}"`);
  return url.origin;
}
