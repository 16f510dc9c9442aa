// The page actions of the editor online (move a page, delete it with a redirect offered, add it to a menu), into a
// change set, never the live site. What each changes is content/page-actions.ts, the function the local studio applies
// to the checkout's files; here its edits are checked by the validator on the site as the set would make it, then
// saved into the set together (the store's saveAll: all or none), each a revision by compare-and-set like any other
// save (content-routes.ts): the page's version is the one its editor opened, every other document's the set's copy as
// read here.
import type { NextFunction, Request, Response, Router } from 'express';
import { pageActionEdits, pageActionOf, menusOf, SITE_FILE } from '../../content/page-actions.ts';
import { pageAnchors } from '../../content/validate/link-rules.ts';
import type { StaffRole } from '../../contracts/staff-api.ts';
import { HttpError, iso, jsonBody, type SignedIn } from '../staff/staff-context.ts';
import {
  copyVersion,
  documentErrors,
  isDocumentPath,
  liveContent,
  liveVersion,
  overlay,
  type DocumentError,
} from './live-content.ts';
import { ChangeRefusal, changeSet, type ContentContext } from './publish-change.ts';

type Route = (req: Request, res: Response) => Promise<void>;
type Answered = (route: Route) => (req: Request, res: Response, next: NextFunction) => Promise<void>;
type Need = (res: Response, roles: readonly StaffRole[], who: string) => SignedIn;

const textOf = (document: unknown): string | null =>
  document === null ? null : `${JSON.stringify(document, null, 2)}\n`;

/** `answered` and `need`: content-routes.ts's wrappers (a ChangeRefusal answered; a role required). */
export function pageActionRoutes(
  context: ContentContext,
  answered: Answered,
  need: Need,
): (router: Router) => void {
  const { changes, audit } = context;

  /** The set's site (live documents, the set's copies over them), and each document parsed on demand. */
  const siteOf = async (id: string) => {
    const set = await changeSet(context, id);
    const live = await liveContent(context.releases);
    const copies = await changes.documents(set.id);
    const site = new Map(overlay(live.documents, copies).map(({ path, text }) => [path, text]));
    const read = (file: string): unknown => {
      const text = site.get(file);
      return text === undefined ? undefined : (JSON.parse(text) as unknown);
    };
    return { set, live, copies, site, read };
  };

  // The menus of the site document as the set makes it: the "Add to a menu" dialog's choices.
  const menus = async (req: Request, res: Response) => {
    const { read } = await siteOf(String(req.params.id));
    res.json({ menus: menusOf(read(SITE_FILE)) });
  };

  const act = async (req: Request, res: Response) => {
    const { member } = need(res, ['editor'], 'editors');
    const body = jsonBody(req);
    const { set, live, copies, site, read } = await siteOf(String(req.params.id));
    if (set.state === 'published') throw new HttpError(409, 'this change set is published: start a new one');
    const action = pageActionOf(body);
    if (typeof action === 'string') throw new HttpError(400, action);
    if (action.action !== 'menu') {
      // The page must still be the version its editor opened, as a save must.
      const copy = copies.find((document) => document.path === action.file);
      const liveText = live.documents.get(action.file) ?? null;
      const current = copy ? copyVersion(copy.version) : liveVersion(liveText);
      if (body.baseVersion !== current) {
        const release = copy ? undefined : await context.releases.get(live.releaseId);
        throw new ChangeRefusal(409, 'this page changed since you opened it', {
          changedBy: copy ? copy.updatedBy : (release?.author ?? null),
          changedAt: copy ? iso(copy.updatedAt) : (release?.at ?? null),
          version: current,
        });
      }
    }
    const outcome = pageActionEdits(action, read);
    if (!outcome.ok) throw new HttpError(outcome.status, outcome.error);
    const edits = outcome.edits.map((edit) => ({ path: edit.file, text: textOf(edit.document) }));
    for (const { path } of edits)
      if (!isDocumentPath(path)) throw new HttpError(403, `${path} is not a content document`);
    // Every document the action writes is checked with the whole site around it as it would be after the action.
    const after = overlay(site, edits);
    const errors: (DocumentError & { file: string })[] = edits.flatMap(({ path, text }) =>
      text === null ? [] : documentErrors(after, path).map((error) => ({ ...error, file: path })),
    );
    if (errors.length > 0) {
      res.status(422).json({ errors });
      return;
    }
    // All the documents in one transaction, each compare-and-set against the copy read above: a save by someone else
    // in between refuses the whole action, and nothing of it is saved.
    const saved = await changes.saveAll(
      set.id,
      edits.map(({ path, text }) => ({
        path,
        baseText: live.documents.get(path) ?? null,
        text,
        expectedVersion: copies.find((document) => document.path === path)?.version ?? null,
        by: member.email,
        now: context.now(),
      })),
    );
    if (!saved.saved)
      throw new ChangeRefusal(409, `${saved.path} changed in this change set since you opened it`, {
        changedBy: saved.current?.updatedBy ?? null,
        changedAt: iso(saved.current?.updatedAt ?? null),
      });
    const versions = new Map(edits.map(({ path }, index) => [path, copyVersion(saved.versions[index] ?? 0)]));
    for (const [path, version] of versions)
      await audit.append({
        actor: member.email,
        action: 'change-edit',
        detail: `${set.id} ${path} ${version}`,
      });
    if (action.action !== 'move') {
      res.json(outcome.answer);
      return;
    }
    // A move answers as the local studio's does: the page's new file, its version there, and its anchors.
    const moved = String(outcome.answer.file);
    res.json({
      ...outcome.answer,
      version: versions.get(moved),
      anchors: [...pageAnchors(read(action.file))],
    });
  };

  return (router: Router) => {
    router.get('/content/changes/:id/menus', answered(menus));
    router.post('/content/changes/:id/page-actions', answered(act));
  };
}
