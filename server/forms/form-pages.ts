// The pages a form sent without JavaScript lands on: received, the list of what to fix, or a refusal (too many
// requests, a store failure) that always offers the phone number. Self-contained (no scripts, no build assets) so they
// work whatever state the build is in.
import type { FormDefinition, Site } from '../../generated/content-types.ts';
import { SOURCE_MAX_LENGTH, SOURCE_PATTERN } from '../../core/form-rules.ts';

// The site and form documents have no slots for these yet; they belong in the site's labels when its schema grows.
const COPY = {
  call: 'Call',
  back: 'Back to the page you were on',
  fixHeading: 'Please check your details',
  fixIntro: 'We could not send your request yet. Please go back and correct these fields:',
  fixCall: 'Or call us now, day or night:',
};

const sourcePattern = new RegExp(SOURCE_PATTERN, 'u');
/** The page to link back to: the form's source when it is a path on this site, else home. */
export const backPath = (source: unknown): string =>
  typeof source === 'string' && source.length <= SOURCE_MAX_LENGTH && sourcePattern.test(source)
    ? source
    : '/';

const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};
export const escapeHtml = (text: string): string => text.replace(/[&<>"']/g, (char) => ESCAPES[char] ?? char);

function layout(title: string, site: Site, main: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="robots" content="noindex">
<title>${escapeHtml(title)} | ${escapeHtml(site.brand.name)}</title>
<style>
body{font:1.125rem/1.6 system-ui,sans-serif;margin:0;padding:1.5rem;color:#1a1b1e;background:#fff}
main{max-width:36rem;margin:0 auto}
.brand{font-weight:700;color:#087f5b}
a{color:#087f5b}
.call{display:inline-block;margin:1rem 0;padding:.75rem 1.25rem;border-radius:.5rem;background:#087f5b;color:#fff;font-weight:700;text-decoration:none}
@media (prefers-color-scheme:dark){body{background:#1a1b1e;color:#e9ecef}.brand,a{color:#63e6be}.call{background:#63e6be;color:#1a1b1e}}
</style>
</head>
<body>
<main>
<p class="brand">${escapeHtml(site.brand.name)}</p>
${main}
</main>
</body>
</html>
`;
}

const callLink = (site: Site): string =>
  `<a class="call" href="tel:${escapeHtml(site.phones.primary.tel)}">${COPY.call} ${escapeHtml(site.phones.primary.display)}</a>`;

/** Shown after a form was stored: the form's own success message, a way to call, a way back. */
export function receivedPage(def: FormDefinition, site: Site, source: unknown): string {
  return layout(
    def.success.title,
    site,
    `<h1>${escapeHtml(def.success.title)}</h1>
<p>${escapeHtml(def.success.text)}</p>
<p>${callLink(site)}</p>
<p><a href="${escapeHtml(backPath(source))}">${COPY.back}</a></p>`,
  );
}

/** Shown when a form sent without JavaScript has mistakes: each field's label and its message, in form order. */
export function invalidPage(
  def: FormDefinition,
  site: Site,
  errors: Record<string, string>,
  source: unknown,
): string {
  const known = def.fields.filter((field) => Object.hasOwn(errors, field.name));
  const knownNames = new Set(known.map((field) => field.name));
  const items = [
    ...known.map((field) => [field.label, errors[field.name] ?? ''] as const),
    ...Object.entries(errors).filter(([name]) => !knownNames.has(name)),
  ].map(([label, message]) => `<li><strong>${escapeHtml(label)}</strong>: ${escapeHtml(message)}</li>`);
  return layout(
    COPY.fixHeading,
    site,
    `<h1>${COPY.fixHeading}</h1>
<p>${COPY.fixIntro}</p>
<ul>
${items.join('\n')}
</ul>
<p><a href="${escapeHtml(backPath(source))}">${COPY.back}</a></p>
<p>${COPY.fixCall}<br>${callLink(site)}</p>`,
  );
}

/** Why a form could not be taken, with the phone number and a way back: a visitor without JavaScript is never stuck. */
export function problemPage(site: Site, title: string, message: string, source: unknown): string {
  return layout(
    title,
    site,
    `<h1>${escapeHtml(title)}</h1>
<p>${escapeHtml(message)}</p>
<p>${COPY.fixCall}<br>${callLink(site)}</p>
<p><a href="${escapeHtml(backPath(source))}">${COPY.back}</a></p>`,
  );
}
