// The studio's editor online (/staff/edit/, issue #28 item 2): its two pages (the editor and its preview frame) and
// their hashed assets, built by `npm run build` into dist/editor/ (studio/vite.staff.config.ts). The pages open only
// for a signed-in member with the editor role (or admin); signed out, the staff area's sign-in comes first. The staff
// area's CSP stays as it is but for two words: the editor may frame its own preview page (frame-src 'self'), and
// only that page may be framed, by this origin alone (frame-ancestors 'self'); every other staff page stays unframable.
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import express, { type Request, type Response } from 'express';
import type { StaffStore } from '../store/contract/staff-store.ts';
import { NONCE_PLACEHOLDER, nonceOf } from './staff-headers.ts';
import type { SessionKeeper } from './staff-session-life.ts';
import { sessionCookies, sessionIdOf } from './staff-session.ts';

export const EDITOR_PATH = '/staff/edit';
const EDITOR_ROLES = new Set(['editor', 'admin']);
const NOT_BUILT = 'The editor is not built: run npm run build';

/** The page's CSP with the one change it needs; the rest as staff-headers.ts set it. */
function adjustPolicy(res: Response, page: 'editor' | 'preview') {
  const policy = String(res.getHeader('Content-Security-Policy') ?? '');
  if (page === 'editor') res.setHeader('Content-Security-Policy', `${policy};frame-src 'self'`);
  else {
    res.setHeader(
      'Content-Security-Policy',
      policy.replace("frame-ancestors 'none'", "frame-ancestors 'self'"),
    );
    res.setHeader('X-Frame-Options', 'SAMEORIGIN');
  }
}

export function editorPages(options: {
  editorDir: string;
  staff: StaffStore;
  sessions: SessionKeeper;
  origin: string;
}): express.Router {
  const router = express.Router();
  router.use(
    '/assets',
    (_req, res, next) => {
      res.removeHeader('Cache-Control');
      next();
    },
    express.static(join(options.editorDir, 'assets'), {
      immutable: true,
      maxAge: '365d',
      index: false,
      fallthrough: false,
    }),
  );
  const read = (name: string) => {
    const file = join(options.editorDir, name);
    return existsSync(file) ? readFileSync(file, 'utf8') : undefined;
  };
  const pages = { editor: read('index.html'), preview: read('preview.html') };

  const page = (which: 'editor' | 'preview') => async (req: Request, res: Response) => {
    const html = pages[which];
    if (html === undefined) return void res.status(503).type('text/plain; charset=utf-8').send(NOT_BUILT);
    const sessionId =
      sessionCookies(req, options.origin).length === 1
        ? sessionIdOf(req, options.staff, options.origin)
        : undefined;
    const session = sessionId && (await options.sessions.live(sessionId, false));
    // Signed out: the staff area signs in (the inbox's screen), and its menu leads back here.
    if (!session) return void res.redirect(303, '/staff/');
    if (!session.member.roles.some((role) => EDITOR_ROLES.has(role)))
      return void res
        .status(403)
        .type('text/plain; charset=utf-8')
        .send('The editor is for members with the editor role. An admin can give it: npm run staff -- set.');
    adjustPolicy(res, which);
    res.type('html').send(html.replaceAll(NONCE_PLACEHOLDER, nonceOf(res)));
  };
  router.get('/', (req, res, next) => {
    // Its pages name the preview frame relatively: the editor's address ends with a slash.
    if (!req.originalUrl.split('?')[0]!.endsWith('/'))
      return res.redirect(301, `${EDITOR_PATH}/${req.originalUrl.slice(EDITOR_PATH.length)}`);
    next();
  });
  router.get('/', (req, res, next) => void page('editor')(req, res).catch(next));
  router.get('/preview.html', (req, res, next) => void page('preview')(req, res).catch(next));
  return router;
}
