// What the staff area's editor (the studio's editor online, /staff/edit/) needs beside the change-set API: the list of
// documents as the change set would make the site (the live release with the set's copies over it), and who else is
// editing a document now (a heartbeat, kept for 30 s in the store, so every instance sees every editor).
import type { NextFunction, Request, Response, Router } from 'express';
import { documentTitleOf } from '../../content/document-titles.ts';
import { kindOf } from '../../content/kinds.ts';
import { pagePath } from '../../core/page-paths.ts';
import { HttpError, signedIn } from '../staff/staff-context.ts';
import { join } from 'node:path';
import { contentPaths } from '../../content/paths.ts';
import { loadSiteData } from '../../core/prerender/content.ts';
import { siteIndex } from '../../content/validate/link-rules.ts';
import { withContentRoot } from '../releases/documents.ts';
import { jsonBody } from '../staff/staff-context.ts';
import { isObject } from '../../content/json-pointer.ts';
import { referencesIn } from '../../content/references.ts';
import { contentPath } from '../../content/validate/document-rules.ts';
import { repeatedParagraphs } from '../../content/validate/repeated-text.ts';
import { seoWarningsOf } from '../../content/validate/seo-warnings.ts';
import { spellingErrors, type SpellingError } from '../../content/validate/spelling.ts';
import { documentErrors, type DocumentError, isDocumentPath, liveContent, overlay } from './live-content.ts';
import { changeSet, type ContentContext } from './publish-change.ts';
import { setMisspellings } from './set-spelling.ts';
import type { ChangeStore } from '../store/contract/change-store.ts';

/** How long a heartbeat keeps a member listed as editing a document. */
export const PRESENCE_MS = 30_000;

/** A document in the editor's list (the studio's own StudioFile shape). */
export interface EditorFile {
  file: string;
  kind: string;
  path?: string;
  title: string;
}

/** Pages first, by address, then the site's documents: the order the studio lists them in. */
export function editorFiles(site: readonly { path: string; text: string }[]): EditorFile[] {
  const files: EditorFile[] = [];
  for (const { path: file, text } of site) {
    const kind = kindOf(file);
    if (!kind || !isDocumentPath(file)) continue;
    if (kind === 'page') {
      const path = pagePath(file);
      files.push({ file, kind, path, title: documentTitleOf(file, text) });
    } else files.push({ file, kind, title: documentTitleOf(file, text) });
  }
  const rank = (f: EditorFile) => (f.kind === 'page' ? 0 : 1);
  return files.sort((a, b) => rank(a) - rank(b) || (a.path ?? a.file).localeCompare(b.path ?? b.file));
}

/**
 * The rest of `npm run check` on `file` as drafted in `site`: its spelling and repeated paragraphs among the site's
 * pages (errors, each with its `check`), and its search-result warnings.
 */
export async function draftChecks(
  site: readonly { path: string; text: string }[],
  file: string,
): Promise<{
  errors: ((DocumentError & { check: 'repeats' }) | SpellingError)[];
  warnings: { pointer: string; message: string }[];
}> {
  const text = site.find((d) => d.path === file)?.text;
  const spelling = text === undefined ? [] : await spellingErrors(file, JSON.parse(text));
  if (!file.startsWith('pages/')) return { errors: spelling, warnings: [] };
  const paths = contentPaths('/content');
  const pages = site
    .filter((d) => d.path.startsWith('pages/'))
    .map((d) => ({ file: join(paths.root, d.path), source: d.text, data: JSON.parse(d.text) as unknown }));
  const errors = repeatedParagraphs(paths, pages)
    .filter((problem) => problem.file === file)
    .map(({ code, pointer, message }) => ({ code, pointer, message, check: 'repeats' as const }));
  const seo = pages.flatMap(({ file: f, data }) =>
    isObject(data) && typeof data.title === 'string' && typeof data.description === 'string'
      ? [{ file: contentPath(paths, f), title: data.title, description: data.description }]
      : [],
  );
  const warnings = seoWarningsOf(seo)
    .filter((warning) => warning.file === file)
    .map(({ pointer, message }) => ({ pointer, message }));
  return { errors: [...errors, ...spelling], warnings };
}

/**
 * Who was seen editing which document of which set, and when: in the store (a row per member and document, pruned at
 * every heartbeat), so that two editors on different instances of one PostgreSQL database see each other.
 */
export class Presence {
  constructor(private readonly changes: ChangeStore) {}

  /** Records `email` on `path` of set `changeId` at `now`; answers the others seen within PRESENCE_MS, latest first. */
  beat(changeId: string, path: string, email: string, name: string, now: number) {
    return this.changes.presence({ changeId, path, email, name, at: now }, PRESENCE_MS);
  }
}

type Route = (req: Request, res: Response) => Promise<void>;
type Answered = (route: Route) => (req: Request, res: Response, next: NextFunction) => Promise<void>;

/** `answered`: content-routes.ts's wrapper, which answers a ChangeRefusal (an unknown set: 404). */
export function editorRoutes(context: ContentContext, answered: Answered): (router: Router) => void {
  const presence = new Presence(context.changes);

  const files = async (req: Request, res: Response) => {
    const set = await changeSet(context, String(req.params.id));
    const live = await liveContent(context.releases);
    res.json({ files: editorFiles(overlay(live.documents, await context.changes.documents(set.id))) });
  };

  const beat = async (req: Request, res: Response) => {
    const { member } = signedIn(res);
    const set = await changeSet(context, String(req.params.id));
    const file = req.query.file;
    if (typeof file !== 'string' || !isDocumentPath(file))
      throw new HttpError(400, 'file names a content document: pages/....json or site/....json');
    const name = member.name ?? member.email;
    res.json({ editing: await presence.beat(set.id, file, member.email, name, context.now()) });
  };

  /** The site as the set makes it, with the draft of `file` over it when one is given. */
  const siteOf = async (id: string, draft?: { file: string; document: unknown }) => {
    const set = await changeSet(context, id);
    const live = await liveContent(context.releases);
    const copies = (await context.changes.documents(set.id)).filter((d) => d.path !== draft?.file);
    const drafted = draft ? [{ path: draft.file, text: `${JSON.stringify(draft.document, null, 2)}\n` }] : [];
    return overlay(live.documents, [...copies, ...drafted]);
  };

  // The site data the editor and its previews render with (header, footer, phone lines, forms), as the live release
  // has it, or as the change set `?change=` makes it: read when the editor opens, like the local studio's.
  const siteData = async (req: Request, res: Response) => {
    const change = req.query.change;
    const site =
      typeof change === 'string' && change !== ''
        ? await siteOf(change)
        : overlay((await liveContent(context.releases)).documents, []);
    res.json(withContentRoot(site, (root) => loadSiteData(root)));
  };

  // The build's validator on a draft, with the whole site around it as the set makes it: asked at each keystroke.
  const validate = async (req: Request, res: Response) => {
    const body = jsonBody(req);
    const file = body.file;
    if (typeof file !== 'string' || !isDocumentPath(file))
      throw new HttpError(400, 'file names a content document: pages/....json or site/....json');
    res.json({
      errors: documentErrors(await siteOf(String(req.params.id), { file, document: body.document }), file),
    });
  };

  // The pages and their anchors, and the redirects, as the set makes the site: the link fields' choices and checks.
  const index = async (req: Request, res: Response) => {
    const site = await siteOf(String(req.params.id));
    const found = withContentRoot(site, (root) => siteIndex(contentPaths(root)));
    res.json({
      pages: [...found.pages].map(([path, anchors]) => ({ path, anchors: [...anchors].sort() })),
      redirects: [...found.redirects].map(([from, to]) => ({ from, to })),
    });
  };

  // The rest of `npm run check` a draft can fail beyond the validator, as the local studio asks for it when typing
  // pauses: spelling and repeated paragraphs (errors) and the search-result warnings, over the site as the set makes it.
  const checks = async (req: Request, res: Response) => {
    const body = jsonBody(req);
    const file = body.file;
    if (typeof file !== 'string' || !isDocumentPath(file))
      throw new HttpError(400, 'file names a content document: pages/....json or site/....json');
    const site = await siteOf(String(req.params.id), { file, document: body.document });
    res.json(await draftChecks(site, file));
  };

  // The set's misspelled words, which its publish would refuse: the editor says so before submit.
  const spelling = async (req: Request, res: Response) => {
    const set = await changeSet(context, String(req.params.id));
    res.json({ misspellings: await setMisspellings(await context.changes.documents(set.id)) });
  };

  // Every link in the set's site to a page (or one anchor of it): asked before an anchor is changed or removed.
  const references = async (req: Request, res: Response) => {
    const path = typeof req.query.path === 'string' ? req.query.path : '';
    const anchor = typeof req.query.anchor === 'string' ? req.query.anchor : undefined;
    const site = await siteOf(String(req.params.id));
    const documents = site.map(({ path: file, text }) => ({ file, data: JSON.parse(text) as unknown }));
    res.json({ references: referencesIn(documents, path, anchor) });
  };

  return (router: Router) => {
    router.get('/content/site-data', answered(siteData));
    router.get('/content/changes/:id/references', answered(references));
    router.post('/content/changes/:id/validate', answered(validate));
    router.post('/content/changes/:id/checks', answered(checks));
    router.get('/content/changes/:id/spelling', answered(spelling));
    router.get('/content/changes/:id/index', answered(index));
    router.get('/content/changes/:id/files', answered(files));
    router.post('/content/changes/:id/presence', answered(beat));
  };
}
