// Preview links for people without an account (issue #28, item 8): a link to a change set's current content, good for
// at most 7 days and revocable; its token is handed out once and kept only as its SHA-256. Made and revoked by staff
// through the content API; opened at /staff/preview/<token> (preview-page.ts).
import type { Request, Response } from 'express';
import { HttpError, iso, jsonBody, type SignedIn } from '../staff/staff-context.ts';
import { secret, sha256 } from '../store/shared/staff-records.ts';
import { changeSet, type ContentContext } from './publish-change.ts';

export const MAX_PREVIEW_HOURS = 7 * 24;
export const PREVIEW_PREFIX = '/staff/preview/';

export function previewLinkRoutes(context: ContentContext, origin: string) {
  return {
    async create(req: Request, res: Response, { member }: SignedIn) {
      const set = await changeSet(context, String(req.params.id));
      const hours = jsonBody(req).hours;
      if (typeof hours !== 'number' || !Number.isFinite(hours) || hours <= 0 || hours > MAX_PREVIEW_HOURS)
        throw new HttpError(400, `hours: more than 0, at most ${MAX_PREVIEW_HOURS} (7 days)`);
      const token = secret();
      const now = context.now();
      const expiresAt = now + Math.round(hours * 3600_000);
      await context.changes.addPreviewLink(set.id, sha256(token), expiresAt, now);
      await context.audit.append({
        actor: member.email,
        action: 'preview-link',
        detail: `${set.id} until ${iso(expiresAt)} link ${sha256(token).slice(0, 12)}`,
      });
      res.status(201).json({ url: `${origin}${PREVIEW_PREFIX}${token}`, expiresAt: iso(expiresAt) });
    },
    async revoke(req: Request, res: Response, { member }: SignedIn) {
      const set = await changeSet(context, String(req.params.id));
      const revoked = await context.changes.revokePreviewLinks(set.id, context.now());
      await context.audit.append({
        actor: member.email,
        action: 'preview-revoke',
        detail: `${set.id} links=${revoked}`,
      });
      res.json({ revoked });
    },
  };
}
