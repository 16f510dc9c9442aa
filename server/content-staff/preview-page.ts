// GET /staff/preview/<token>[?page=/path]: a change set's current content as visitors would see it, for someone
// without an account (a physician reviewing by e-mail). The link's token is checked by its hash; an expired or revoked
// link shows a page that says so (410). The page is the real renderer's, served without its scripts (nothing of it is
// live: no hydration, no form posts), with `noindex` and a banner "Preview: not published". Every view is audited, by
// the link (its hash's first characters), never by who opened it.
import type { Request, Response } from 'express';
import { kindOf } from '../../content/kinds.ts';
import { pagePath } from '../../core/page-paths.ts';
import { nonceOf } from '../staff/staff-headers.ts';
import { sha256 } from '../store/shared/staff-records.ts';
import { contentHash } from './change-review.ts';
import { liveContent, overlay } from './live-content.ts';
import { renderPreview } from './preview-render.ts';
import { escapeHtml } from '../forms/form-pages.ts';
import { staticCopy } from './static-copy.ts';
import type { ContentContext } from './publish-change.ts';

export const BANNER_TEXT = 'Preview: not published';

function plainPage(res: Response, status: number, title: string, text: string): void {
  res
    .status(status)
    .type('html')
    .send(
      `<!doctype html><html lang="en"><head><meta charset="utf-8"><meta name="robots" content="noindex, nofollow">` +
        `<title>${escapeHtml(title)}</title></head><body><main><h1>${escapeHtml(title)}</h1><p>${escapeHtml(text)}</p></main></body></html>`,
    );
}

/** The rendered page made a preview: no scripts, the nonce on its styles, noindex, and the banner first in the body. */
function asPreview(html: string, nonce: string, pages: string[], token: string, shown: string): string {
  const others = pages
    .filter((path) => path !== shown)
    .map(
      (path) => `<a href="/staff/preview/${token}?page=${encodeURIComponent(path)}">${escapeHtml(path)}</a>`,
    )
    .join(' ');
  return staticCopy(html, nonce, {
    className: 'preview-banner',
    background: '#7a2e00',
    extraCss: '.preview-banner a{color:#fff;margin-left:.75rem}',
    html: `${BANNER_TEXT}${others ? ` <span>Other pages: ${others}</span>` : ''}`,
  });
}

export function previewPage(context: ContentContext) {
  return async (req: Request, res: Response): Promise<void> => {
    res.set({
      'X-Robots-Tag': 'noindex, nofollow',
      'Cache-Control': 'no-store',
      'Referrer-Policy': 'no-referrer',
    });
    const token = String(req.params.token ?? '');
    const hash = sha256(token);
    const link = /^[\w-]{20,100}$/.test(token) ? await context.changes.previewLink(hash) : undefined;
    if (!link || link.revokedAt !== null || context.now() >= link.expiresAt) {
      plainPage(
        res,
        link ? 410 : 404,
        'This preview link no longer works',
        'It has expired or was withdrawn. Ask for a new one.',
      );
      return;
    }
    const documents = await context.changes.documents(link.changeId);
    const live = await liveContent(context.releases);
    const site = overlay(live.documents, documents);
    const pages = documents
      .filter((document) => document.text !== null && kindOf(document.path) === 'page')
      .map((document) => pagePath(document.path));
    const asked = typeof req.query.page === 'string' ? req.query.page : undefined;
    const shown =
      asked && site.some((d) => d.path.startsWith('pages/') && pagePath(d.path) === asked)
        ? asked
        : (pages[0] ?? '/');
    let html;
    try {
      html = await renderPreview(context.codeDir, site, shown, `${live.releaseId}:${contentHash(documents)}`);
    } catch (error) {
      context.logger.error({ err: (error as Error).message, change: link.changeId }, 'preview render failed');
      plainPage(
        res,
        503,
        'This preview cannot be shown now',
        'The page could not be rendered. Try again shortly.',
      );
      return;
    }
    await context.audit.append({
      actor: `preview:${hash.slice(0, 12)}`,
      action: 'preview-view',
      detail: `${link.changeId} ${shown}`,
    });
    res
      .status(200)
      .type('html')
      .send(asPreview(html, nonceOf(res), pages, token, shown));
  };
}
