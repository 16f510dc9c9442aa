// How the form API says no: JSON `{ error }` to the enhanced form, a page with the phone number to a form posted
// without JavaScript, since that visitor has no script to show a message and may be in crisis.
import type { Request, Response } from 'express';
import type { Site } from '../generated/content-types.ts';
import { problemPage } from './form-pages.ts';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A plain form POST, as a browser without JavaScript sends it. */
export const isPlainForm = (req: Request): boolean => Boolean(req.is(FORM_TYPE));

const TITLES: Record<number, string> = {
  403: 'This request was refused',
  429: 'Too many requests',
  503: 'We could not take your request',
};

export type Refuse = (req: Request, res: Response, message: string, status?: number) => void;

/**
 * The page the form was sent from: its `source` field once the body is parsed, else the Referer when it is this site
 * (a refusal before parsing, such as the rate limit). problemPage checks it is a site path either way.
 */
function sourceOf(req: Request): unknown {
  const body: unknown = req.body;
  if (typeof body === 'object' && body !== null && 'source' in body) return body.source;
  const referer = req.get('referer');
  try {
    const url = referer === undefined ? undefined : new URL(referer);
    return url && url.host === req.get('host') ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

/** Answers `status` with `message`: JSON, or a page for a form posted without JavaScript. */
export function refusal(site: Site, defaultStatus: number): Refuse {
  return (req, res, message, status = defaultStatus) => {
    res.status(status).set('Cache-Control', 'no-store');
    if (!isPlainForm(req)) {
      res.json({ error: message });
      return;
    }
    res.type('html').send(problemPage(site, TITLES[status] ?? 'Please call us', message, sourceOf(req)));
  };
}
