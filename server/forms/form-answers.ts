// How the form API answers, on Node's own response (server/forms/form-api.ts says why not Express's): JSON to the enhanced
// form; to a form posted without JavaScript, a page, since that visitor has no script to show a message and may be
// in crisis. Every answer is a one-off: no-store, and no ETag to compute.
import type { IncomingMessage, ServerResponse } from 'node:http';
import typeis from 'type-is';
import type { Site } from '../../generated/content-types.ts';
import { problemPage } from './form-pages.ts';

export const JSON_TYPE = 'application/json';
export const FORM_TYPE = 'application/x-www-form-urlencoded';

/** A plain form POST, as a browser without JavaScript sends it. */
export const isPlainForm = (req: IncomingMessage): boolean => Boolean(typeis(req, [FORM_TYPE]));

function send(res: ServerResponse, status: number, type: string, body: string): void {
  res.writeHead(status, {
    'Cache-Control': 'no-store',
    'Content-Type': type,
    'Content-Length': Buffer.byteLength(body),
  });
  res.end(body);
}

export const sendJson = (res: ServerResponse, status: number, value: unknown): void =>
  send(res, status, 'application/json; charset=utf-8', JSON.stringify(value));

export const sendPage = (res: ServerResponse, status: number, html: string): void =>
  send(res, status, 'text/html; charset=utf-8', html);

/** 303 See Other: where a plain form post goes once its lead is stored. */
export function seeOther(res: ServerResponse, location: string): void {
  res.writeHead(303, { 'Cache-Control': 'no-store', Location: location, 'Content-Length': 0 });
  res.end();
}

const TITLES: Record<number, string> = {
  403: 'This request was refused',
  422: 'This request was not saved',
  429: 'Too many requests',
  503: 'We could not take your request',
};

/**
 * The page the form was sent from, to link back to: its `source` field once the body is parsed, else the Referer when
 * it is this site (a refusal before parsing, such as the rate limit). problemPage checks it is a site path either way.
 */
function sourceOf(req: IncomingMessage, body: unknown): unknown {
  if (typeof body === 'object' && body !== null && 'source' in body) return body.source;
  const referer = req.headers.referer;
  try {
    const url = referer === undefined ? undefined : new URL(referer);
    return url && url.host === req.headers.host ? url.pathname : undefined;
  } catch {
    return undefined;
  }
}

// A refusal that is no fault of the form (the lead could not be stored) asks the visitor to call: the JSON answer
// carries the number too, as the page does, for a client to show whatever its own copy of the site says.
const CALL_NOW = new Set([503]);

/**
 * Answers `status` with `message`: `{ error }` as JSON (with `phone`, the admissions number, when the visitor can only
 * call), or a page with the phone number for a plain form post.
 */
export function refuse(
  site: Site,
  req: IncomingMessage,
  res: ServerResponse,
  status: number,
  message: string,
  body?: unknown,
): void {
  if (!isPlainForm(req))
    return sendJson(
      res,
      status,
      CALL_NOW.has(status) ? { error: message, phone: site.phones.primary.display } : { error: message },
    );
  sendPage(res, status, problemPage(site, TITLES[status] ?? 'Please call us', message, sourceOf(req, body)));
}
