// What staff do to a page as a whole, besides editing it: move it to another address, delete it (its address
// redirected, when they choose, so links and bookmarks keep working), and put it in a menu of the site document.
// Each is computed here once, as documents in and edited documents out, with no reading or writing: the local studio
// (studio/server/, the checkout's files) and the content API (server/content-staff/, a change set) apply the same edits
// each in its own way, with its own version checks and its own validator run. Browser-safe: no Node modules.
import { pageFile, pagePath } from '../core/page-paths.ts';
import { isObject, valueAt } from './json-pointer.ts';

export const SITE_FILE = 'site/site.json';
export const REDIRECTS_FILE = 'site/redirects.json';

/** A menu of the site document: where its list of links is, its name in words, and how an item is written. */
export type Menu = {
  pointer: string;
  title: string;
  paths: string[];
  nameKey: 'name' | 'label';
  describe: boolean;
};

/** Every list of links in the header and footer of `site`, in the order visitors see them. */
export function menusOf(site: unknown): Menu[] {
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

/** A page action as staff ask for it (the body both APIs take). Versions are the backend's business, not here. */
export type PageAction =
  | { action: 'menu'; pointer: string; path: string; label: string; description?: string }
  | { action: 'delete'; file: string; redirectTo?: string }
  | { action: 'move'; file: string; path: string; redirect: boolean };

/** One document's new content; `document: null` deletes it. `copyOf`: the same content as that file (a move), so a
 * backend that keeps the file's own formatting can copy its text as it is. */
export type DocumentEdit = { file: string; document: unknown; copyOf?: string };

export type ActionOutcome =
  | {
      ok: true;
      /** In the order to apply them: a page's new copy before the old one goes, the redirects after. */
      edits: DocumentEdit[];
      /** What happened, as the API answers it. */
      answer: Record<string, unknown>;
    }
  | { ok: false; status: 400 | 403 | 404 | 409; error: string };

/** The documents as they are now, parsed: undefined for one that does not exist. */
export type Documents = (file: string) => unknown;

type Rule = { from: string[]; to: string };
type Table = { redirects: Rule[] } & Record<string, unknown>;

const refuse = (status: 400 | 403 | 404 | 409, error: string): ActionOutcome => ({
  ok: false,
  status,
  error,
});

const tableOf = (value: unknown): Table | undefined =>
  isObject(value) && Array.isArray(value.redirects) ? (structuredClone(value) as Table) : undefined;

/** The action in a request body, or what is wrong with it. */
export function pageActionOf(body: unknown): PageAction | string {
  if (!isObject(body)) return 'send a JSON object';
  const text = (key: string) => (typeof body[key] === 'string' ? body[key] : undefined);
  const file = text('file');
  const path = text('path');
  switch (body.action) {
    case 'menu': {
      const pointer = text('pointer');
      const label = text('label');
      if (pointer === undefined || path === undefined || label === undefined)
        return 'send { "action": "menu", "pointer", "path", "label" }';
      const description = text('description');
      return { action: 'menu', pointer, path, label, ...(description === undefined ? {} : { description }) };
    }
    case 'delete': {
      if (file === undefined) return 'send { "action": "delete", "file", "redirectTo"? }';
      const redirectTo = text('redirectTo');
      return { action: 'delete', file, ...(redirectTo === undefined ? {} : { redirectTo }) };
    }
    case 'move':
      if (file === undefined || path === undefined)
        return 'send { "action": "move", "file", "path", "redirect" }';
      return { action: 'move', file, path, redirect: body.redirect === true };
    default:
      return 'action: "menu", "delete" or "move"';
  }
}

/** Adds a link to `path` at the end of the menu at `pointer`, named `label` (and `description`, where items have one). */
function addToMenu(action: Extract<PageAction, { action: 'menu' }>, documents: Documents): ActionOutcome {
  const site = structuredClone(documents(SITE_FILE));
  const menu = menusOf(site).find((m) => m.pointer === action.pointer);
  if (!menu) return refuse(404, 'no such menu');
  if (menu.paths.includes(action.path)) return refuse(409, `${action.path} is already in ${menu.title}`);
  const item: Record<string, string> = { [menu.nameKey]: action.label, href: action.path };
  if (menu.describe) item.description = action.description ?? '';
  (valueAt(site, menu.pointer) as unknown[]).push(item);
  return { ok: true, edits: [{ file: SITE_FILE, document: site }], answer: { menu: menu.title } };
}

/** Rules that led to `from` (any anchor of it) lead to `to` instead: a chain of redirects is an error. `keepAnchor`:
 * the page lives on at `to` (a move), so its anchors do too. */
function retarget(table: Table, from: string, to: string, keepAnchor: boolean) {
  for (const rule of table.redirects) {
    const [path, anchor] = rule.to.split('#');
    if (path === from) rule.to = keepAnchor && anchor !== undefined ? `${to}#${anchor}` : to;
  }
  table.redirects.push({ from: [from], to });
}

/** Deletes the page `file`; with `redirectTo`, its address then leads there, and so do rules that led to it. */
function deletePage(action: Extract<PageAction, { action: 'delete' }>, documents: Documents): ActionOutcome {
  if (!/^pages\/.+\.json$/.test(action.file)) return refuse(403, 'only pages under pages/ can be deleted');
  if (documents(action.file) === undefined) return refuse(404, 'no such page');
  const from = pagePath(action.file);
  const edits: DocumentEdit[] = [{ file: action.file, document: null }];
  const to = action.redirectTo;
  if (to !== undefined) {
    const table = tableOf(documents(REDIRECTS_FILE));
    if (!table) return refuse(404, `${REDIRECTS_FILE} is missing`);
    retarget(table, from, to, false);
    edits.push({ file: REDIRECTS_FILE, document: table });
  }
  return { ok: true, edits, answer: { deleted: from, ...(to === undefined ? {} : { redirectTo: to }) } };
}

/** Moves the page `file` to the address `path`: the same document there, none here, and (when asked) a redirect. */
function movePage(action: Extract<PageAction, { action: 'move' }>, documents: Documents): ActionOutcome {
  const target = /^\/[\w/-]*$/.test(action.path) ? pageFile(action.path) : '';
  if (!/^pages\/.+\.json$/.test(action.file) || !target.startsWith('pages/') || target.includes('..'))
    return refuse(403, 'only pages under pages/ can be moved');
  const page = documents(action.file);
  if (page === undefined) return refuse(404, 'no such page');
  if (documents(target) !== undefined) return refuse(409, `${action.path} is already a page`);
  const edits: DocumentEdit[] = [
    { file: target, document: page, copyOf: action.file },
    { file: action.file, document: null },
  ];
  const table = action.redirect ? tableOf(documents(REDIRECTS_FILE)) : undefined;
  if (table) {
    retarget(table, pagePath(action.file), pagePath(target), true);
    edits.push({ file: REDIRECTS_FILE, document: table });
  }
  return { ok: true, edits, answer: { file: target } };
}

/** The documents `action` changes, as they are to be after it; or why it cannot be done. */
export function pageActionEdits(action: PageAction, documents: Documents): ActionOutcome {
  switch (action.action) {
    case 'menu':
      return addToMenu(action, documents);
    case 'delete':
      return deletePage(action, documents);
    case 'move':
      return movePage(action, documents);
  }
}
