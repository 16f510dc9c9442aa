// The inbox API behind a session: the list (filters, search, pages), a lead, its status and notes, the CSV export and
// the audit log (admins only). Every act is audited with who and which lead, never with what was searched or read. A
// read the inbox made on its own (X-Staff-Background: the list refreshed after a new lead) is not the member's: it is
// audited as `auto-list` (or `auto-view`) by `auto:<email>`, the screen of whose session it was shown on.
import { randomUUID } from 'node:crypto';
import { once } from 'node:events';
import type { Request, Response, Router } from 'express';
import { stringify } from 'csv-stringify';
import {
  isLeadStatus,
  type AuditPage,
  type LeadDetail,
  type LeadNote,
  type LeadsPage,
  type NoteRequest,
  type StatusRequest,
} from '../../contracts/staff-api.ts';
import { noteRule } from '../../contracts/desk-rules.ts';
import type { AuditEntry } from '../store/contract/audit-log.ts';
import type { InboxFilter } from '../store/contract/inbox.ts';
import { InboxQueryError } from '../store/shared/inbox-query.ts';
import { safeCell } from '../store/shared/lead-report.ts';
import { HttpError, jsonBody, signedIn, type StaffDeps } from './staff-context.ts';
import { isBackground } from './staff-session-life.ts';
import { exportColumns, leadPage, listItem } from './staff-lead-view.ts';
import { DEFAULT_TIME_ZONE, exportCells, exportHeader } from './staff-export-rows.ts';
import type { ReadLimit } from './staff-read-limit.ts';

const PAGE_SIZE = 50;
const MAX_PAGE = 200;
/** An export whose client takes nothing for this long is cut off (and audited as aborted). */
const EXPORT_STALL_MS = 60_000;

/** One query parameter (or, for a search, a field of its JSON body) as a string; 400 when it is given twice. */
function param(req: Request, name: string): string | undefined {
  const raw = req.method === 'POST' ? jsonBody(req)[name] : req.query[name];
  const value = typeof raw === 'number' ? String(raw) : raw;
  if (value === undefined || value === null || value === '') return undefined;
  if (typeof value !== 'string' || value.length > 200) throw new HttpError(400, `give ${name} once, as text`);
  return value;
}

/** A cursor or filter the store cannot read is the request's mistake: 400, never a 503 or an error in the log. */
async function storeQuery<T>(read: () => Promise<T>): Promise<T> {
  try {
    return await read();
  } catch (error) {
    if (error instanceof InboxQueryError) throw new HttpError(400, error.message);
    throw error;
  }
}

/** An ISO 8601 instant (a date and a time), normalised to UTC. */
function instant(req: Request, name: string): string | undefined {
  const value = param(req, name);
  if (value === undefined) return undefined;
  const time = /^\d{4}-\d{2}-\d{2}T/.test(value) ? Date.parse(value) : Number.NaN;
  if (Number.isNaN(time)) throw new HttpError(400, `${name} must be an ISO 8601 instant`);
  return new Date(time).toISOString();
}

/**
 * The filters of a list or export, and how the audit log writes them: the search as `q=(search)`, never its text.
 * `status` is one status or several, comma-separated; `owner` is `mine` or `unassigned`.
 */
export function filterOf(req: Request, me: string): { filter: InboxFilter; detail: string } {
  const statusText = param(req, 'status');
  const statuses = statusText?.split(',') ?? [];
  if (!statuses.every(isLeadStatus)) throw new HttpError(400, 'unknown status');
  const ownerText = param(req, 'owner');
  if (ownerText !== undefined && ownerText !== 'mine' && ownerText !== 'unassigned')
    throw new HttpError(400, 'owner is mine or unassigned');
  const filter: InboxFilter = {
    status: statuses.length === 1 ? statuses[0] : undefined,
    statuses: statuses.length > 1 ? statuses : undefined,
    owner: ownerText === undefined ? undefined : ownerText === 'mine' ? me : null,
    formId: param(req, 'form'),
    from: instant(req, 'from'),
    to: instant(req, 'to'),
    q: param(req, 'q'),
  };
  const detail = [
    ['status', statusText],
    ['owner', ownerText],
    ['form', filter.formId],
    ['from', filter.from],
    ['to', filter.to],
    ['q', filter.q === undefined ? undefined : '(search)'],
  ]
    .filter(([, value]) => value !== undefined)
    .map(([name, value]) => `${name}=${value}`)
    .join('&');
  return { filter, detail };
}

/** Who read, for the audit log: the member, or the inbox on its own in their session (a background request). */
function reader(req: Request, res: Response, action: 'list' | 'view'): Pick<AuditEntry, 'actor' | 'action'> {
  const { email } = signedIn(res).member;
  return isBackground(req) ? { actor: `auto:${email}`, action: `auto-${action}` } : { actor: email, action };
}

function requireAdmin(res: Response): string {
  const { member } = signedIn(res);
  if (!member.admin) throw new HttpError(403, 'admins only');
  return member.email;
}

export function leadRoutes(deps: StaffDeps, reads: ReadLimit) {
  const { inbox, audit, forms } = deps;

  const list = async (req: Request, res: Response<LeadsPage>) => {
    const { member } = signedIn(res);
    const { filter, detail: filterDetail } = filterOf(req, member.email);
    const view = param(req, 'view') ?? 'all';
    if (view !== 'all' && view !== 'needs-action') throw new HttpError(400, 'view is all or needs-action');
    const detail = [view === 'all' ? '' : `view=${view}`, filterDetail].filter(Boolean).join('&');
    await reads.check(member.email, res);
    const limitText = param(req, 'limit');
    const limit = limitText === undefined ? PAGE_SIZE : Number(limitText);
    if (!Number.isInteger(limit) || limit < 1 || limit > MAX_PAGE)
      throw new HttpError(400, `limit is 1 to ${MAX_PAGE}`);
    const order = view === 'needs-action' ? 'due' : 'newest';
    const page = await storeQuery(() =>
      inbox.list({ ...filter, order, before: param(req, 'before'), limit }),
    );
    await reads.spent(member.email, page.rows.length);
    // The ids shown, in full (a page is 200 leads at most): who saw a given lead's row can be found.
    const shown = `shown=${page.rows.map((row) => row.id).join(',') || 'none'}`;
    await audit.append({ ...reader(req, res, 'list'), detail: [detail, shown].filter(Boolean).join(' ') });
    const now = deps.now();
    const related = await inbox.related(page.rows.map((row) => row.id));
    res.json({
      leads: page.rows.map((row) => listItem(row, forms, now, related.get(row.id))),
      next: page.next,
    });
  };

  const view = async (req: Request, res: Response<LeadDetail>) => {
    const { member } = signedIn(res);
    await reads.check(member.email, res);
    const lead = await inbox.get(String(req.params.id));
    if (!lead) throw new HttpError(404, 'not found');
    await reads.spent(member.email, 1);
    await audit.append({ ...reader(req, res, 'view'), leadId: lead.id });
    res.json(leadPage(lead, forms, (await inbox.related([lead.id])).get(lead.id)));
  };

  const status = async (req: Request, res: Response<LeadDetail>) => {
    const { member } = signedIn(res);
    const id = String(req.params.id);
    const wanted = jsonBody<StatusRequest>(req).status;
    if (!isLeadStatus(wanted)) throw new HttpError(400, 'unknown status');
    const before = await inbox.get(id);
    const after = before && (await inbox.setStatus(id, wanted, member.email));
    if (!before || !after) throw new HttpError(404, 'not found');
    await audit.append({
      actor: member.email,
      action: 'status',
      leadId: id,
      detail: `${before.status} -> ${after.status}`,
    });
    res.json(leadPage(after, forms, (await inbox.related([id])).get(id)));
  };

  const note = async (req: Request, res: Response<LeadNote>) => {
    const { member } = signedIn(res);
    const { text } = jsonBody<NoteRequest>(req);
    const problem = noteRule(text);
    if (problem !== null || typeof text !== 'string') throw new HttpError(400, problem ?? 'a note is text');
    const added = await inbox.addNote(String(req.params.id), text.trim(), member.email);
    if (!added) throw new HttpError(404, 'not found');
    await audit.append({ actor: member.email, action: 'note', leadId: String(req.params.id) });
    res.status(201).json(added);
  };

  // The export is in the audit log before its first byte leaves (export-start), and its end is too, however it ends
  // (export-end, linked by export=<id>): finished, aborted (the client went away: nothing more is written, and a
  // stalled client is cut off) or failed, with the rows sent. A row once written is never changed: two rows, not one.
  const csv = async (req: Request, res: Response) => {
    const actor = requireAdmin(res);
    const { filter, detail } = filterOf(req, actor);
    await reads.check(actor, res);
    const columns = exportColumns(forms, filter.formId);
    // The first row is read before answering, so a store that cannot answer gets a 503, not a cut-off file.
    const rows = inbox.all(filter)[Symbol.asyncIterator]();
    let next = await storeQuery(() => rows.next());
    const exportId = randomUUID();
    await audit.append({
      actor,
      action: 'export-start',
      detail: [detail, `export=${exportId}`].filter(Boolean).join(' '),
    });
    const gone = new AbortController();
    res.once('close', () => gone.abort());
    res.setTimeout(EXPORT_STALL_MS, () => res.destroy());
    res.status(200).type('text/csv; charset=utf-8');
    res.setHeader('Content-Disposition', 'attachment; filename="leads.csv"');
    const out = stringify({ record_delimiter: 'windows', bom: true });
    const timeZone = deps.timeZone ?? DEFAULT_TIME_ZONE;
    out.pipe(res);
    let count = 0;
    let outcome: 'finished' | 'aborted' | 'failed' = 'aborted';
    try {
      out.write(exportHeader(columns, timeZone));
      for (; !next.done && !gone.signal.aborted; next = await rows.next()) {
        // Its notes and calls too: one read per lead (an export is an admin's rare act, read a page at a time).
        const lead = await inbox.get(next.value.id);
        if (!lead) continue;
        // A turn of the event loop every so often: reads that settle at once (SQLite) must not starve the socket, or
        // a client that went away would not be heard.
        if (count % 64 === 63) await new Promise((resolve) => setImmediate(resolve));
        const cells = exportCells(lead, columns, forms, timeZone);
        count += 1;
        // The response's own backlog counts too: the CSV stream may take rows while the client reads none.
        if (!out.write(cells.map(safeCell)))
          await once(out, 'drain', { signal: gone.signal }).catch(() => undefined);
        else if (res.writableNeedDrain)
          await once(res, 'drain', { signal: gone.signal }).catch(() => undefined);
      }
      if (!gone.signal.aborted) {
        out.end();
        await once(res, 'close');
        outcome = res.writableFinished ? 'finished' : 'aborted';
      }
    } catch (error) {
      outcome = 'failed';
      deps.logger.error({ err: (error as Error).message, rows: count }, 'lead export failed part way');
      res.destroy();
    } finally {
      out.unpipe(res);
      await rows.return?.();
      if (outcome === 'aborted')
        deps.logger.warn({ rows: count }, 'lead export stopped: the client went away');
      await reads.spent(actor, count);
      await audit.append({
        actor,
        action: 'export-end',
        detail: `export=${exportId} outcome=${outcome} rows=${count}`,
      });
    }
  };

  const auditPage = async (req: Request, res: Response<AuditPage>) => {
    const actor = requireAdmin(res);
    const beforeText = param(req, 'before');
    const before = beforeText === undefined ? undefined : Number(beforeText);
    if (before !== undefined && !(Number.isInteger(before) && before > 0))
      throw new HttpError(400, 'before is a row number');
    const page = await audit.page({ before, limit: PAGE_SIZE });
    await audit.append({ actor, action: 'audit-view' });
    res.json({
      rows: page.rows.map(({ seq, at, actor: who, action, leadId, detail }) => ({
        seq,
        at,
        actor: who,
        action,
        leadId,
        detail,
      })),
      next: page.next,
    });
  };

  return (router: Router) => {
    router.get('/leads', list);
    router.post('/leads/search', list);
    router.get('/leads.csv', csv);
    router.get('/leads/:id', view);
    router.post('/leads/:id/status', status);
    router.post('/leads/:id/notes', note);
    router.get('/audit', auditPage);
  };
}
