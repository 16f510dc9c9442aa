// The content API (/staff/api/content/, issue #28's "Interface that tests rely on"): change sets made, their documents
// read and saved (compare-and-set on an opaque version, checked by the build's validator), submitted, commented,
// approved (four eyes, authority per claim kind, a fresh passkey), published, scheduled, and previewed by link. Behind
// the staff area's session and cross-site checks (staff-area.ts); open only to editorial roles and admins. Every act
// is in the audit log with the member's e-mail.
import { documentTitleOf } from '../../content/document-titles.ts';
import { randomUUID } from 'node:crypto';
import type { NextFunction, Request, Response, Router } from 'express';
import { CONTENT_ROLES, REFUSED, type StaffRole } from '../../contracts/staff-api.ts';
import type { ClaimKind } from '../../content/claims/keyword.ts';
import type { ChangeView } from '../../contracts/content-api.ts';
import { HttpError, iso, jsonBody, signedIn, type SignedIn } from '../staff/staff-context.ts';
import { requireRoles } from '../staff/staff-roles.ts';
import { FRESH_ASSERTION_MS } from '../staff/staff-session-life.ts';
import { RUNNING_WITHIN_MS } from '../releases/publisher.ts';
import {
  AUTHORITY_WORDS,
  authorityOf,
  contentHash,
  isStale,
  missingApprovals,
  requiredKinds,
} from './change-review.ts';
import {
  copyVersion,
  documentErrors,
  isDocumentPath,
  liveContent,
  liveVersion,
  overlay,
  wouldNotPublish,
} from './live-content.ts';
import {
  ChangeRefusal,
  changeSet,
  checkApproved,
  publishChange,
  type ContentContext,
} from './publish-change.ts';
import { previewLinkRoutes } from './preview-links.ts';
import { documentsDiff, pageSummaries } from './change-diff.ts';
import { historyRoutes } from './history-routes.ts';
import { editorRoutes } from './editor-routes.ts';
import { pageActionRoutes } from './page-action-routes.ts';
import { scheduleRoutes } from './schedule-routes.ts';

/** The longest title of a change set, and of a comment. */
const MAX_TITLE = 200;
const MAX_COMMENT = 5000;

/** Refuses (403) a member who holds none of `roles`, saying who may. */
function need(res: Response, roles: readonly StaffRole[], who: string): SignedIn {
  const signed = signedIn(res);
  if (!signed.member.roles.some((role) => roles.includes(role)))
    throw new HttpError(403, `only ${who} may do that`);
  return signed;
}

/** Refuses (401) a session whose last user-verified passkey check is older than 5 minutes. */
function freshPasskey(context: ContentContext, { session }: SignedIn): void {
  if (session.verifiedAt === null || context.now() - session.verifiedAt > FRESH_ASSERTION_MS)
    throw new HttpError(401, REFUSED.freshPasskey);
}

const fileOf = (req: Request): string => {
  const file = req.query.file;
  if (typeof file !== 'string' || !isDocumentPath(file))
    throw new HttpError(400, 'file names a content document: pages/....json or site/....json');
  return file;
};

/** An answer for a ChangeRefusal; other errors go on to the staff area's handler. */
const answered =
  (route: (req: Request, res: Response) => Promise<void>) =>
  async (req: Request, res: Response, next: NextFunction): Promise<void> => {
    try {
      await route(req, res);
    } catch (error) {
      if (!(error instanceof ChangeRefusal)) return next(error);
      res.status(error.status).json({ error: error.message, ...error.extra });
    }
  };

export function contentRoutes(context: ContentContext, origin: string): (router: Router) => void {
  const { changes, audit } = context;

  const create = async (req: Request, res: Response) => {
    const { member } = need(res, ['editor'], 'editors');
    const title = jsonBody(req).title;
    if (typeof title !== 'string' || title.trim() === '' || title.length > MAX_TITLE)
      throw new HttpError(400, `title: 1 to ${MAX_TITLE} characters`);
    const live = await context.releases.live();
    if (!live) throw new HttpError(503, 'no release is live yet');
    const id = randomUUID();
    await changes.create({
      id,
      title: title.trim(),
      author: member.email,
      baseRelease: live.releaseId,
      now: context.now(),
    });
    await audit.append({ actor: member.email, action: 'change-create', detail: id });
    res.status(201).json({ id });
  };

  const list = async (_req: Request, res: Response) => {
    const sets = await changes.list();
    res.json({
      changes: sets.map((set) => ({
        id: set.id,
        title: set.title,
        author: set.author,
        state: set.state,
        updatedAt: iso(set.updatedAt),
      })),
    });
  };

  const show = async (req: Request, res: Response<ChangeView>) => {
    const set = await changeSet(context, String(req.params.id));
    const [documents, approvals, comments, revisions] = await Promise.all([
      changes.documents(set.id),
      changes.approvals(set.id),
      changes.comments(set.id),
      changes.revisions(set.id),
    ]);
    const hash = contentHash(documents);
    const requires = requiredKinds(documents);
    // Pages deleted, moved or created, in words (the live redirects are read only when the set has such a page).
    const summaries = documents.some(
      (d) => d.path.startsWith('pages/') && (d.text === null || d.baseText === null),
    )
      ? pageSummaries(documents, (await liveContent(context.releases)).documents)
      : new Map<string, string>();
    let live = null;
    if (set.publishedRelease !== null) {
      const reports = await context.releases.instances(
        new Date(Date.now() - RUNNING_WITHIN_MS).toISOString(),
      );
      live = {
        on: reports.filter((report) => report.releaseId === set.publishedRelease).length,
        of: reports.length,
      };
    }
    res.json({
      id: set.id,
      title: set.title,
      author: set.author,
      state: set.state,
      baseRelease: set.baseRelease,
      release: set.publishedRelease === null ? null : String(set.publishedRelease),
      live,
      documents: documents.map((document) => ({
        path: document.path,
        title: documentTitleOf(document.path, document.text ?? document.baseText),
        version: copyVersion(document.version),
        created: document.baseText === null,
        deleted: document.text === null,
        summary: summaries.get(document.path) ?? null,
        updatedBy: document.updatedBy,
        updatedAt: iso(document.updatedAt),
      })),
      requires,
      missing: missingApprovals(requires, approvals, hash),
      approvals: approvals.map((approval) => ({
        by: approval.by,
        at: iso(approval.at),
        covers: approval.covers,
        stale: isStale(approval, hash),
      })),
      editors: [...new Set(revisions.map((revision) => revision.by))],
      comments: comments.map((comment) => ({ ...comment, at: iso(comment.at) })),
      schedule: set.schedule && { ...set.schedule, at: iso(set.schedule.at) },
      timeZone: context.timeZone,
    });
  };

  const readDocument = async (req: Request, res: Response) => {
    const set = await changeSet(context, String(req.params.id));
    const path = fileOf(req);
    const copy = (await changes.documents(set.id)).find((document) => document.path === path);
    if (copy) {
      res.json({
        document: copy.text === null ? null : JSON.parse(copy.text),
        version: copyVersion(copy.version),
      });
      return;
    }
    const live = (await liveContent(context.releases)).documents.get(path) ?? null;
    if (live === null) {
      res.status(404).json({
        error: 'no such document: save one with this version to create it',
        version: liveVersion(null),
      });
      return;
    }
    res.json({ document: JSON.parse(live), version: liveVersion(live) });
  };

  const saveDocument = async (req: Request, res: Response) => {
    const { member } = need(res, ['editor'], 'editors');
    const set = await changeSet(context, String(req.params.id));
    const path = fileOf(req);
    if (set.state === 'published') throw new HttpError(409, 'this change set is published: start a new one');
    const body = jsonBody(req);
    if (typeof body.baseVersion !== 'string')
      throw new HttpError(400, 'baseVersion: the version the edit started from');
    if (
      body.document === undefined ||
      (body.document !== null && (typeof body.document !== 'object' || Array.isArray(body.document)))
    )
      throw new HttpError(400, 'document: the JSON document, or null to delete it');
    const text = body.document === null ? null : `${JSON.stringify(body.document, null, 2)}\n`;
    const live = await liveContent(context.releases);
    const documents = await changes.documents(set.id);
    const copy = documents.find((document) => document.path === path);
    const liveText = live.documents.get(path) ?? null;
    if (copy ? body.baseVersion !== copyVersion(copy.version) : body.baseVersion !== liveVersion(liveText)) {
      const release = copy ? undefined : await context.releases.get(live.releaseId);
      throw new ChangeRefusal(409, 'this document changed since you opened it', {
        changedBy: copy ? copy.updatedBy : (release?.author ?? null),
        changedAt: copy ? iso(copy.updatedAt) : (release?.at ?? null),
        version: copy ? copyVersion(copy.version) : liveVersion(liveText),
      });
    }
    if (text === null && liveText === null && !copy) throw new HttpError(404, 'no such document to delete');
    if (text !== null) {
      const others = documents.filter((document) => document.path !== path);
      const errors = documentErrors(overlay(live.documents, [...others, { path, text }]), path);
      if (errors.length > 0) {
        res.status(422).json({ errors });
        return;
      }
    }
    const saved = await changes.save(set.id, {
      path,
      baseText: liveText,
      text,
      expectedVersion: copy?.version ?? null,
      by: member.email,
      now: context.now(),
    });
    if (!saved.saved)
      throw new ChangeRefusal(409, 'this document changed since you opened it', {
        changedBy: saved.current?.updatedBy ?? null,
        changedAt: iso(saved.current?.updatedAt ?? null),
        version: saved.current ? copyVersion(saved.current.version) : liveVersion(liveText),
      });
    await audit.append({
      actor: member.email,
      action: 'change-edit',
      detail: `${set.id} ${path} ${copyVersion(saved.version)}`,
    });
    res.json({ version: copyVersion(saved.version) });
  };

  const submit = async (req: Request, res: Response) => {
    const { member } = need(res, ['editor'], 'editors');
    const set = await changeSet(context, String(req.params.id));
    const documents = await changes.documents(set.id);
    const requires = requiredKinds(documents);
    if (requires.length === 0) throw new HttpError(409, 'this change set changes nothing yet');
    // A set that could not publish never reaches a reviewer: the whole site with it passes the build's checks.
    const blocker = wouldNotPublish(overlay((await liveContent(context.releases)).documents, documents));
    if (blocker) throw new HttpError(409, blocker);
    const at = { requires, now: context.now() };
    if (!(await changes.setState(set.id, ['draft', 'in_review'], 'in_review', at)))
      throw new HttpError(409, `this change set is ${set.state}`);
    await audit.append({
      actor: member.email,
      action: 'change-submit',
      detail: `${set.id} requires ${requires.join(',')}`,
    });
    res.json({ state: 'in_review', requires });
  };

  const comment = async (req: Request, res: Response) => {
    const { member } = need(res, CONTENT_ROLES, 'staff of the site');
    const set = await changeSet(context, String(req.params.id));
    const body = jsonBody(req);
    if (typeof body.text !== 'string' || body.text.trim() === '' || body.text.length > MAX_COMMENT)
      throw new HttpError(400, `text: 1 to ${MAX_COMMENT} characters`);
    const path = typeof body.file === 'string' && isDocumentPath(body.file) ? body.file : null;
    const pointer = typeof body.pointer === 'string' ? body.pointer.slice(0, 500) : null;
    await changes.comment(set.id, { by: member.email, at: context.now(), path, pointer, text: body.text });
    await audit.append({
      actor: member.email,
      action: 'change-comment',
      detail: `${set.id}${path ? ` ${path}` : ''}`,
    });
    res.status(201).json({});
  };

  // Field by field, in words, for review (change-diff.ts).
  const diff = async (req: Request, res: Response) => {
    const set = await changeSet(context, String(req.params.id));
    const live = await liveContent(context.releases);
    res.json({ documents: documentsDiff(await changes.documents(set.id), live.documents) });
  };

  // A reviewer sends the set back to its editors: in review becomes draft again, with the reviewer's reason kept as a
  // comment. Approvals stay as they are: any edit after makes them stale, and an unchanged set keeps them.
  const requestChanges = async (req: Request, res: Response) => {
    const { member } = need(res, ['reviewer', 'admin'], 'reviewers');
    const set = await changeSet(context, String(req.params.id));
    const text = jsonBody(req).text;
    if (typeof text !== 'string' || text.trim() === '' || text.length > MAX_COMMENT)
      throw new HttpError(400, `text: what to change, 1 to ${MAX_COMMENT} characters`);
    if (!(await changes.setState(set.id, ['in_review'], 'draft', { now: context.now() })))
      throw new HttpError(409, 'only a change set in review can be sent back');
    await changes.comment(set.id, { by: member.email, at: context.now(), path: null, pointer: null, text });
    await audit.append({ actor: member.email, action: 'change-request-changes', detail: set.id });
    res.json({ state: 'draft' });
  };

  const approve = async (req: Request, res: Response) => {
    const signed = need(res, ['reviewer', 'admin'], 'reviewers');
    const { member } = signed;
    const set = await changeSet(context, String(req.params.id));
    const [documents, revisions] = await Promise.all([changes.documents(set.id), changes.revisions(set.id)]);
    if (set.author === member.email || revisions.some((revision) => revision.by === member.email))
      throw new HttpError(403, 'you edited this change set: someone else must approve it (four eyes)');
    if (set.state !== 'in_review') throw new HttpError(409, 'only a change set in review is approved');
    const requires = requiredKinds(documents);
    const authority = authorityOf(member);
    const covers: ClaimKind[] = requires.filter((kind) => authority.includes(kind));
    if (covers.length === 0)
      throw new HttpError(
        403,
        `this change needs ${requires.map((kind) => AUTHORITY_WORDS[kind]).join(' and ')} to approve it`,
      );
    freshPasskey(context, signed);
    const hash = contentHash(documents);
    await changes.approve(set.id, {
      by: member.email,
      at: context.now(),
      contentHash: hash,
      covers,
      name: member.name,
      credential: member.credential,
    });
    await audit.append({
      actor: member.email,
      action: 'change-approve',
      detail: `${set.id} ${covers.join(',')} sha256:${hash}`,
    });
    res.json({
      covers,
      contentHash: hash,
      missing: missingApprovals(requires, await changes.approvals(set.id), hash),
    });
  };

  const publishRoute = async (req: Request, res: Response) => {
    const signed = need(res, ['publisher'], 'publishers');
    await checkApproved(context, await changeSet(context, String(req.params.id)));
    freshPasskey(context, signed);
    const published = await publishChange(context, String(req.params.id), signed.member.email);
    res.json({ release: String(published.release), live: published.live });
  };

  const schedules = scheduleRoutes(context, { need, freshPasskey });

  const previews = previewLinkRoutes(context, origin);
  const history = historyRoutes(context);

  return (router: Router) => {
    router.use(
      requireRoles(CONTENT_ROLES, 'the content is for editorial staff', (path) =>
        path.startsWith('/content/'),
      ),
    );
    router.post('/content/changes', answered(create));
    router.get('/content/changes', answered(list));
    router.get('/content/changes/:id', answered(show));
    router.get('/content/changes/:id/documents', answered(readDocument));
    router.put('/content/changes/:id/documents', answered(saveDocument));
    router.post('/content/changes/:id/submit', answered(submit));
    // The staff area's editor: its document list and who else is editing (editor-routes.ts).
    editorRoutes(context, answered)(router);
    // Its page actions (move, delete, add to a menu), into the set (page-action-routes.ts).
    pageActionRoutes(context, answered, need)(router);
    router.post('/content/changes/:id/comments', answered(comment));
    router.get('/content/changes/:id/diff', answered(diff));
    router.post('/content/changes/:id/request-changes', answered(requestChanges));
    router.post('/content/changes/:id/approve', answered(approve));
    router.post('/content/changes/:id/publish', answered(publishRoute));
    router.post('/content/changes/:id/schedule', answered(schedules.schedule));
    router.delete('/content/changes/:id/schedule', answered(schedules.cancel));
    router.post(
      '/content/changes/:id/preview-links',
      answered((req, res) => previews.create(req, res, need(res, CONTENT_ROLES, 'staff of the site'))),
    );
    router.delete(
      '/content/changes/:id/preview-links',
      answered((req, res) => previews.revoke(req, res, need(res, CONTENT_ROLES, 'staff of the site'))),
    );
    history(router);
  };
}
