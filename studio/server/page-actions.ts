// The page actions (move, delete with a redirect offered, add to a menu) on the checkout's files. What each changes is
// computed by content/page-actions.ts, the same function the content API applies to a change set; here the edits are
// checked as a save is (the page must still be the version staff saw; the site document and redirects stay valid)
// and written with the file's own formatting kept.
import { existsSync, readFileSync, unlinkSync } from 'node:fs';
import { pageAnchors } from '../../content/validate/link-rules.ts';
import { pageActionEdits, pageActionOf, menusOf, SITE_FILE } from '../../content/page-actions.ts';
import { checkDocument } from './checks.ts';
import { documentPath, versionOf } from './documents.ts';
import { documentText } from './minimal-edit.ts';

export type ActionResult = { status: number; body: Record<string, unknown> };
type Write = (file: string, text: string) => void;

const readText = (absolute: string | undefined): string | undefined =>
  absolute && existsSync(absolute) ? readFileSync(absolute, 'utf8') : undefined;

/** A checkout document, parsed; undefined when it does not exist (or is not a content document). */
const readDocument = (file: string): unknown => {
  const text = readText(documentPath(file));
  return text === undefined ? undefined : (JSON.parse(text) as unknown);
};

/** Every list of links in the header and footer of the checkout's site document. */
export const menus = () => menusOf(readDocument(SITE_FILE));

/**
 * Applies a page action (`{ action: "menu" | "delete" | "move", ... }`, with `baseVersion`, the page's version staff
 * saw, for a delete or a move) to the files.
 */
export async function pageAction(body: unknown, write: Write): Promise<ActionResult> {
  const action = pageActionOf(body);
  if (typeof action === 'string') return { status: 400, body: { error: action } };
  if (action.action !== 'menu') {
    const page = readText(documentPath(action.file));
    const baseVersion = (body as { baseVersion?: unknown }).baseVersion;
    if (page !== undefined && versionOf(page) !== baseVersion)
      return { status: 409, body: { error: 'the file changed on disk since it was opened' } };
  }
  const outcome = pageActionEdits(action, readDocument);
  if (!outcome.ok) return { status: outcome.status, body: { error: outcome.error } };
  // The site document and the redirects are checked before anything is written. The page a move creates is the
  // page as it was, and is not on disk yet when its redirect is checked: a move writes as it always did, unchecked.
  if (action.action !== 'move')
    for (const edit of outcome.edits) {
      if (edit.document === null) continue;
      // The page being deleted is still on disk while its redirect is checked: that the rule hides it is expected.
      const errors = checkDocument(edit.file, edit.document).filter((e) => e.code !== 'redirect-hides-page');
      if (errors.length > 0) return { status: 422, body: { errors } };
    }
  let moved: string | undefined;
  for (const edit of outcome.edits) {
    const absolute = documentPath(edit.file);
    if (!absolute) return { status: 403, body: { error: `${edit.file} is not a content document` } };
    const before = readText(absolute);
    if (edit.document === null) {
      if (before !== undefined) unlinkSync(absolute);
    } else if (edit.copyOf !== undefined) {
      // A move: the text as it was, byte for byte.
      moved = readText(documentPath(edit.copyOf));
      if (moved === undefined) return { status: 404, body: { error: 'no such page' } };
      write(absolute, moved);
    } else write(absolute, await documentText(absolute, before, edit.document));
  }
  const answer =
    moved === undefined
      ? outcome.answer
      : { ...outcome.answer, version: versionOf(moved), anchors: [...pageAnchors(JSON.parse(moved))] };
  return { status: 200, body: answer };
}
