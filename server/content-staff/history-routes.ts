// A page's history and the site's rollback (issue #28, item 7), in the content API: every release in which a page's
// document changed, with who published it, the change set's author and its reviewers (the release store keeps documents
// per release; the change store keeps approvals per set: joined by the release's message, which names its change set);
// any version opened as visitors saw it (the release's own stored HTML, without scripts, noindex, behind the session);
// "restore this version" (a new change set holding that text, reviewed like any other, never published directly); and
// a publisher's rollback of the whole site to an earlier release (server/releases/publisher.ts), recorded.
import { randomUUID } from 'node:crypto';
import type { Request, Response, Router } from 'express';
import type { HistoryAnswer, PageVersion } from '../../contracts/content-api.ts';
import { REFUSED } from '../../contracts/staff-api.ts';
import { kindOf } from '../../content/kinds.ts';
import { htmlFile, pagePath } from '../../core/page-paths.ts';
import { knownRelease, ReleaseError, rollback } from '../releases/publisher.ts';
import { HttpError, jsonBody, signedIn } from '../staff/staff-context.ts';
import { framedBySelf, nonceOf } from '../staff/staff-headers.ts';
import { FRESH_ASSERTION_MS } from '../staff/staff-session-life.ts';
import { isDocumentPath, liveContent, liveVersion, overlay } from './live-content.ts';
import { changeSet } from './publish-change.ts';
import { renderPreview } from './preview-render.ts';
import type { ContentContext } from './publish-change.ts';
import { contentHash, isStale } from './change-review.ts';
import { escapeHtml } from '../forms/form-pages.ts';
import { staticCopy } from './static-copy.ts';

/** The change set a release was published from: its message is `change set <id>: <title>` (publish-change.ts). */
const changeIdOf = (message: string): string | undefined => /^change set ([\w-]+):/.exec(message)?.[1];

/** A release's stored page as visitors saw it, made safe to open in the staff area: no scripts, noindex, a banner. */
export const asArchived = (html: string, nonce: string, banner: string): string =>
  staticCopy(html, nonce, { className: 'archive-banner', background: '#1c3d5a', html: escapeHtml(banner) });

export function historyRoutes(context: ContentContext) {
  const { releases, changes, audit } = context;

  const fileOf = (req: Request): string => {
    const file = typeof req.query.file === 'string' ? req.query.file : jsonBody(req).file;
    if (typeof file !== 'string' || !isDocumentPath(file))
      throw new HttpError(400, 'file names a content document: pages/....json or site/....json');
    return file;
  };

  /** GET /content/history?file=<path>: the versions of one document, newest first; without file, the live pages. */
  const history = async (req: Request, res: Response<HistoryAnswer>) => {
    const live = await releases.live();
    if (typeof req.query.file !== 'string') {
      const documents = live ? await releases.documents(live.releaseId) : [];
      const pages = documents.map((document) => document.path).filter((path) => kindOf(path) === 'page');
      res.json({ pages: pages.sort(), versions: [] });
      return;
    }
    const file = fileOf(req);
    const versions: PageVersion[] = [];
    let before: string | undefined;
    for (const release of await releases.list().then((all) => [...all].sort((a, b) => a.id - b.id))) {
      const text = (await releases.documents(release.id)).find((document) => document.path === file)?.text;
      if (text === before) continue;
      before = text;
      const changeId = changeIdOf(release.message);
      const set = changeId ? await changes.get(changeId) : undefined;
      // Only the approvals of the content published: an approval made stale by a later edit reviewed something else.
      const hash = set ? contentHash(await changes.documents(set.id)) : '';
      const approvals = set
        ? (await changes.approvals(set.id)).filter((approval) => !isStale(approval, hash))
        : [];
      versions.push({
        release: release.id,
        at: release.at,
        publishedBy: release.author,
        message: release.message,
        exists: text !== undefined,
        change: set ? { id: set.id, title: set.title, author: set.author } : null,
        reviewers: approvals.map((approval) => ({
          by: approval.by,
          name: approval.name,
          credential: approval.credential,
          at: new Date(approval.at).toISOString(),
        })),
        live: live?.releaseId === release.id,
      });
    }
    res.json({ pages: [], versions: versions.reverse() });
  };

  /** GET /content/history/<release>/view?file=<path>: that release's page HTML, as it was served. */
  const view = async (req: Request, res: Response) => {
    const release = await knownRelease(releases, String(req.params.release)).catch(() => {
      throw new HttpError(404, 'no such release');
    });
    const file = fileOf(req);
    if (kindOf(file) !== 'page') throw new HttpError(400, 'only a page has a view');
    const path = pagePath(file);
    const html = await releases.file(release.id, htmlFile(path));
    if (!html) throw new HttpError(404, `release ${release.id} has no page ${path}`);
    const { member } = signedIn(res);
    await audit.append({
      actor: member.email,
      action: 'release-view',
      detail: `release ${release.id} ${path}`,
    });
    res
      .set({ 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' })
      .type('html')
      .send(
        asArchived(
          html.toString('utf8'),
          nonceOf(res),
          `Release ${release.id} as visitors saw it (${release.at})`,
        ),
      );
  };

  /**
   * GET /content/changes/<id>/render?file=<page>&side=before|after: the page as visitors see it now (the live release's
   * stored HTML), or as the change set would make it (the real renderer over the set's documents, as a preview link
   * shows it), for a reviewer to compare. Behind the session, noindex, no scripts.
   */
  const render = async (req: Request, res: Response) => {
    const set = await changeSet(context, String(req.params.id));
    const file = fileOf(req);
    if (kindOf(file) !== 'page') throw new HttpError(400, 'only a page has a view');
    const path = pagePath(file);
    const live = await liveContent(releases);
    res.set({ 'X-Robots-Tag': 'noindex, nofollow', 'Cache-Control': 'no-store' }).type('html');
    // Shown in place on the change set page, in a frame of the staff app (inbox/content/RenderedSides.tsx).
    framedBySelf(res);
    if (req.query.side === 'before') {
      const html = await releases.file(live.releaseId, htmlFile(path));
      if (!html) throw new HttpError(404, `${path} is not live: it is new in this change set`);
      res.send(asArchived(html.toString('utf8'), nonceOf(res), `Before: ${path} as visitors see it now`));
      return;
    }
    const documents = await changes.documents(set.id);
    if (documents.some((document) => document.path === file && document.text === null))
      throw new HttpError(404, `this change set deletes ${path}`);
    const html = await renderPreview(
      context.codeDir,
      overlay(live.documents, documents),
      path,
      `${live.releaseId}:${contentHash(documents)}`,
    );
    res.send(asArchived(html, nonceOf(res), `After: ${path} with this change set (not published)`));
  };

  /** POST /content/history/<release>/restore `{ file }`: a new change set holding that version. Editors only. */
  const restore = async (req: Request, res: Response) => {
    const { member } = signedIn(res);
    if (!member.roles.includes('editor')) throw new HttpError(403, 'only editors may do that');
    const release = await knownRelease(releases, String(req.params.release)).catch(() => {
      throw new HttpError(404, 'no such release');
    });
    const file = fileOf(req);
    const text =
      (await releases.documents(release.id)).find((document) => document.path === file)?.text ?? null;
    const live = await liveContent(releases);
    const liveText = live.documents.get(file) ?? null;
    if (text === liveText) throw new HttpError(409, 'that version is what is live now: nothing to restore');
    const id = randomUUID();
    await changes.create({
      id,
      title: `Restore ${file} to release ${release.id}`,
      author: member.email,
      baseRelease: live.releaseId,
      now: context.now(),
    });
    await audit.append({
      actor: member.email,
      action: 'change-create',
      detail: `${id} restore release ${release.id}`,
    });
    const saved = await changes.save(id, {
      path: file,
      baseText: liveText,
      text,
      expectedVersion: null,
      by: member.email,
      now: context.now(),
    });
    if (!saved.saved) throw new HttpError(409, 'the new change set moved while it was made');
    await audit.append({
      actor: member.email,
      action: 'change-edit',
      detail: `${id} ${file} ${saved.version}`,
    });
    res.status(201).json({ id, baseVersion: liveVersion(liveText) });
  };

  /** POST /content/releases/<release>/rollback: the whole site back to that release. Publishers, a fresh passkey. */
  const rollBack = async (req: Request, res: Response) => {
    const { member, session } = signedIn(res);
    if (!member.roles.includes('publisher')) throw new HttpError(403, 'only publishers may do that');
    const release = await knownRelease(releases, String(req.params.release)).catch(() => {
      throw new HttpError(404, 'no such release');
    });
    if (session.verifiedAt === null || context.now() - session.verifiedAt > FRESH_ASSERTION_MS)
      throw new HttpError(401, REFUSED.freshPasskey);
    try {
      await rollback({ releases, audit }, release.id, { actor: member.email });
    } catch (error) {
      if (error instanceof ReleaseError) throw new HttpError(409, error.message);
      throw error;
    }
    res.json({ release: String(release.id) });
  };

  return (router: Router) => {
    router.get('/content/changes/:id/render', render);
    router.get('/content/history', history);
    router.get('/content/history/:release/view', view);
    router.post('/content/history/:release/restore', restore);
    router.post('/content/releases/:release/rollback', rollBack);
  };
}
