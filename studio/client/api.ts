// The studio server's API, as the editor calls it: checks, diffs, links and page actions. Documents themselves are
// listed, read, saved and watched through backend/content-backend.ts.
import type { FieldError, FieldWarning, SiteLinks } from './form/form-context.ts';
import { changeId } from './backend/backend.ts';
import type { Menu } from '../../content/page-actions.ts';

export type DiffLine = {
  kind: 'same' | 'removed' | 'added';
  text: string;
  oldLine?: number;
  newLine?: number;
};

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
// The staff API answers a state-changing request only with X-Staff-Request (its cross-site check); the studio server
// ignores it.
const post = (url: string, body: unknown, method = 'POST') =>
  fetch(url, {
    method,
    headers: { 'content-type': 'application/json', 'X-Staff-Request': '1' },
    body: JSON.stringify(body),
  });
// Online (/staff/edit/), the checks and the site's index come from the content API, over the change set's site.
const onlineSet = changeId === null ? null : `/staff/api/content/changes/${encodeURIComponent(changeId)}`;

export const api = {
  links: async () => json<SiteLinks>(await fetch(onlineSet ? `${onlineSet}/index` : '/studio-api/index')),
  /** The build's validator on a draft: asked after each keystroke. */
  validate: async (file: string, document: unknown) =>
    (
      await json<{ errors: FieldError[] }>(
        await post(onlineSet ? `${onlineSet}/validate` : '/studio-api/validate', { file, document }),
      )
    ).errors,
  /** The rest of `npm run check` (spelling, repeated paragraphs) and validate's warnings: asked when typing pauses. */
  checks: async (file: string, document: unknown) =>
    json<{ errors: FieldError[]; warnings: FieldWarning[] }>(
      await post(onlineSet ? `${onlineSet}/checks` : '/studio-api/checks', { file, document }),
    ),
  diff: async (file: string, document: unknown) =>
    json<{ hunks: DiffLine[][]; changed: number }>(await post('/studio-api/diff', { file, document })),
  references: async (path: string, anchor?: string) =>
    (
      await json<{ references: { file: string; pointer: string; href: string }[] }>(
        await fetch(
          `${onlineSet ?? '/studio-api'}/references?path=${encodeURIComponent(path)}${anchor ? `&anchor=${encodeURIComponent(anchor)}` : ''}`,
        ),
      )
    ).references,
  // The page actions: online into the change set (one request each: the content API saves every document it
  // changes as a revision of the set), locally onto the checkout's files. Both compute the edits with
  // content/page-actions.ts.
  rename: (file: string, path: string, baseVersion: string, redirect: boolean) =>
    onlineSet
      ? post(`${onlineSet}/page-actions`, { action: 'move', file, path, baseVersion, redirect })
      : post('/studio-api/rename', { file, path, baseVersion, redirect }),
  menus: async () =>
    (await json<{ menus: Menu[] }>(await fetch(onlineSet ? `${onlineSet}/menus` : '/studio-api/menus')))
      .menus,
  addToMenu: (pointer: string, path: string, label: string, description: string) =>
    onlineSet
      ? post(`${onlineSet}/page-actions`, { action: 'menu', pointer, path, label, description })
      : post('/studio-api/menu', { pointer, path, label, description }),
  deletePage: (file: string, baseVersion: string, redirectTo: string | undefined) => {
    const body = { file, baseVersion, ...(redirectTo === undefined ? {} : { redirectTo }) };
    return onlineSet
      ? post(`${onlineSet}/page-actions`, { action: 'delete', ...body })
      : post('/studio-api/delete', body);
  },
};
