// The site and form documents the server needs, checked against their schemas: a broken document stops the start
// with the same kind of message as `npm run validate`, instead of surfacing as a wrong answer to a visitor.
import { readdirSync } from 'node:fs';
import { basename, join } from 'node:path';
import type { FormDefinition, RedirectTable, Site } from '../generated/content-types.ts';
import { redirectRules, type RedirectRule } from '../core/redirects.ts';
import { ROOT, contentPaths } from '../content/paths.ts';
import { SCHEMA_FILES, contentAjv, readJson, schemaId } from '../content/schemas.ts';

// The server serves the checkout's documents.
const CHECKOUT = contentPaths(ROOT);

const FORM_ID = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

export class ContentError extends Error {}

const checked = <T>(file: string, schemaFile: string): T =>
  checkedDocument<T>(file, readJson(file), schemaFile);

/** `document` (read from `file`, or a release's document of that path), checked against its schema. */
function checkedDocument<T>(file: string, document: unknown, schemaFile: string): T {
  const validate = contentAjv().getSchema(schemaId(schemaFile));
  if (!validate) throw new ContentError(`schema ${schemaFile} is not registered`);
  if (!validate(document)) {
    const details = (validate.errors ?? []).map(
      (error) => `  ${error.instancePath || '/'} ${error.message ?? ''}`,
    );
    throw new ContentError(`${file} does not match its schema; run npm run validate\n${details.join('\n')}`);
  }
  return document as T;
}

export const loadSite = (file = CHECKOUT.siteFile): Site => checked<Site>(file, SCHEMA_FILES.site);

export const loadRedirects = (file = CHECKOUT.redirectsFile): RedirectRule[] =>
  redirectRules(checked<RedirectTable>(file, SCHEMA_FILES.redirects));

/** Every form definition under `dir`, by id: the file name without .json. */
export function loadForms(dir = CHECKOUT.formsDir): Map<string, FormDefinition> {
  const forms = new Map<string, FormDefinition>();
  for (const file of readdirSync(dir)
    .filter((name) => name.endsWith('.json'))
    .sort()) {
    const id = basename(file, '.json');
    if (!FORM_ID.test(id))
      throw new ContentError(`${join(dir, file)}: a form id is lower-case words joined by hyphens`);
    forms.set(id, checked<FormDefinition>(join(dir, file), SCHEMA_FILES.form));
  }
  return forms;
}

/** What the server itself reads of the content: the site, its forms by id, its old addresses. */
export interface ServerContent {
  site: Site;
  forms: Map<string, FormDefinition>;
  redirects: RedirectRule[];
}

/** The server's content from a release's documents (by path: `site/site.json`, `site/forms/<id>.json`, ...). */
export function serverContentOf(documents: ReadonlyMap<string, string>): ServerContent {
  const parsed = (path: string, schemaFile: string) => {
    const text = documents.get(path);
    if (text === undefined) throw new ContentError(`the release has no ${path}`);
    try {
      return checkedDocument(path, JSON.parse(text), schemaFile);
    } catch (error) {
      if (error instanceof SyntaxError) throw new ContentError(`${path}: ${error.message}`);
      throw error;
    }
  };
  const forms = new Map<string, FormDefinition>();
  for (const path of [...documents.keys()].filter((key) => /^site\/forms\/[^/]+\.json$/.test(key)).sort()) {
    const id = basename(path, '.json');
    if (!FORM_ID.test(id)) throw new ContentError(`${path}: a form id is lower-case words joined by hyphens`);
    forms.set(id, parsed(path, SCHEMA_FILES.form) as FormDefinition);
  }
  return {
    site: parsed('site/site.json', SCHEMA_FILES.site) as Site,
    forms,
    redirects: redirectRules(parsed('site/redirects.json', SCHEMA_FILES.redirects) as RedirectTable),
  };
}
