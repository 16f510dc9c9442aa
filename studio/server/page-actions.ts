// What staff do to a page as a whole, besides editing it: delete it (its address redirected, when they choose, so
// links and bookmarks keep working) and put it in a menu of the site document. Each write is checked as a save is:
// the page must still be the version staff saw, and the site document and redirects stay valid.
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { isObject, valueAt } from '../../content/json-pointer.ts';
import { pagePath } from '../../core/page-paths.ts';
import { checkDocument } from './checks.ts';
import { CONTENT, documentPath, versionOf } from './documents.ts';
import { documentText } from './minimal-edit.ts';

export type ActionResult = { status: number; body: Record<string, unknown> };
type Write = (file: string, text: string) => void;

/** A menu of the site document: where its list of links is, its name in words, and how an item is written. */
export type Menu = {
  pointer: string;
  title: string;
  paths: string[];
  nameKey: 'name' | 'label';
  describe: boolean;
};

const SITE = 'site/site.json';
const readSite = () => JSON.parse(readFileSync(CONTENT.siteFile, 'utf8')) as unknown;

/** Every list of links in the header and footer, in the order visitors see them. */
export function menus(site: unknown = readSite()): Menu[] {
  const found: Menu[] = [];
  const add = (pointer: string, title: string) => {
    const list = valueAt(site, pointer);
    if (!Array.isArray(list)) return;
    const first: unknown = list[0];
    found.push({
      pointer,
      title,
      paths: list.flatMap((item) => (isObject(item) && typeof item.href === 'string' ? [item.href] : [])),
      nameKey: isObject(first) && 'label' in first ? 'label' : 'name',
      describe: isObject(first) && 'description' in first,
    });
  };
  const header = isObject(site) && isObject(site.header) ? site.header : {};
  if (isObject(header.programs)) add('/header/programs/items', `Header: ${String(header.programs.label)}`);
  const treatments = isObject(header.treatments) ? header.treatments : {};
  (Array.isArray(treatments.groups) ? treatments.groups : []).forEach((group, i) => {
    if (isObject(group))
      add(
        `/header/treatments/groups/${i}/items`,
        `Header: ${String(treatments.label)}, ${String(group.category)}`,
      );
  });
  const footer = isObject(site) && isObject(site.footer) ? site.footer : {};
  (Array.isArray(footer.groups) ? footer.groups : []).forEach((group, i) => {
    if (isObject(group)) add(`/footer/groups/${i}/links`, `Footer: ${String(group.title)}`);
  });
  return found;
}

/** Adds a link to `path` at the end of the menu at `pointer`, named `label` (and `description`, where items have one). */
export async function addToMenu(body: unknown, write: Write): Promise<ActionResult> {
  if (
    !isObject(body) ||
    typeof body.pointer !== 'string' ||
    typeof body.path !== 'string' ||
    typeof body.label !== 'string'
  )
    return { status: 400, body: { error: 'send { "pointer", "path", "label" }' } };
  const text = readFileSync(CONTENT.siteFile, 'utf8');
  const site = JSON.parse(text) as unknown;
  const menu = menus(site).find((m) => m.pointer === body.pointer);
  if (!menu) return { status: 404, body: { error: 'no such menu' } };
  if (menu.paths.includes(body.path))
    return { status: 409, body: { error: `${body.path} is already in ${menu.title}` } };
  const item: Record<string, string> = { [menu.nameKey]: body.label, href: body.path };
  if (menu.describe) item.description = typeof body.description === 'string' ? body.description : '';
  const list = valueAt(site, menu.pointer) as unknown[];
  list.push(item);
  const errors = checkDocument(SITE, site);
  if (errors.length > 0) return { status: 422, body: { errors } };
  write(CONTENT.siteFile, await documentText(CONTENT.siteFile, text, site));
  return { status: 200, body: { menu: menu.title } };
}

/**
 * Deletes the page `file` if it is still at `baseVersion`; with `redirectTo`, its address then leads there, and
 * rules that led to it lead there too (a chain of redirects is an error).
 */
export async function deletePage(body: unknown, write: Write): Promise<ActionResult> {
  const file = isObject(body) && typeof body.file === 'string' ? body.file : '';
  const absolute = documentPath(file);
  if (!isObject(body) || !absolute || !file.startsWith('pages/'))
    return { status: 403, body: { error: 'only pages under pages/ can be deleted' } };
  if (!existsSync(absolute) || versionOf(readFileSync(absolute, 'utf8')) !== body.baseVersion)
    return { status: 409, body: { error: 'the file changed on disk since it was opened' } };
  const from = pagePath(file);
  const to = typeof body.redirectTo === 'string' ? body.redirectTo : undefined;
  if (to !== undefined) {
    const redirectsText = readFileSync(CONTENT.redirectsFile, 'utf8');
    const table = JSON.parse(redirectsText) as { redirects: { from: string[]; to: string }[] };
    for (const rule of table.redirects) if (rule.to.split('#')[0] === from) rule.to = to;
    table.redirects.push({ from: [from], to });
    const errors = checkDocument('site/redirects.json', table).filter(
      (e) => e.code !== 'redirect-hides-page',
    );
    if (errors.length > 0) return { status: 422, body: { errors } };
    unlinkSync(absolute);
    write(CONTENT.redirectsFile, await documentText(CONTENT.redirectsFile, redirectsText, table));
  } else unlinkSync(absolute);
  return { status: 200, body: { deleted: from, ...(to === undefined ? {} : { redirectTo: to }) } };
}
