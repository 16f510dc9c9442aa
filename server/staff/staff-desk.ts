// The desk's acts on a lead, behind a session: "I'm calling" (claim: one owner, 409 when another member has it),
// release, assign (an admin, or the owner handing it on), and a call with its outcome (attempts counted, the status
// following it, a callback's time the new due time). Each is audited with its member, and told to every open list and
// lead page (InboxStore.onLeadChanged, staff-events.ts).
import type { Request, Response, Router } from 'express';
import { callbackRule, outcomeRule } from '../../contracts/desk-rules.ts';
import type { AssignRequest, CallRequest, CallOutcome, LeadDetail } from '../../contracts/staff-api.ts';
import type { MergeRequest } from '../../contracts/staff-admin.ts';
import { HttpError, jsonBody, signedIn, type StaffDeps } from './staff-context.ts';
import { leadPage } from './staff-lead-view.ts';

export function deskRoutes(deps: StaffDeps) {
  const { inbox, audit, forms, staff } = deps;

  const answer = async (res: Response<LeadDetail>, id: string) => {
    const lead = await inbox.get(id);
    if (!lead) throw new HttpError(404, 'not found');
    res.json(leadPage(lead, forms, (await inbox.related([id])).get(id)));
  };

  const claim = async (req: Request, res: Response<LeadDetail>) => {
    const { member } = signedIn(res);
    const id = String(req.params.id);
    const outcome = await inbox.claim(id, member.email);
    if (outcome === 'missing') throw new HttpError(404, 'not found');
    if (outcome === 'taken') {
      const owner = (await inbox.get(id))?.owner ?? 'someone else';
      throw new HttpError(409, `${owner} is calling`);
    }
    await audit.append({ actor: member.email, action: 'claim', leadId: id });
    await answer(res, id);
  };

  const release = async (req: Request, res: Response<LeadDetail>) => {
    const { member } = signedIn(res);
    const id = String(req.params.id);
    const outcome = await inbox.release(id, member.email, member.admin);
    if (outcome === 'missing') throw new HttpError(404, 'not found');
    if (outcome === 'not-owner')
      throw new HttpError(409, 'another member is calling: only they or an admin release it');
    await audit.append({ actor: member.email, action: 'release', leadId: id });
    await answer(res, id);
  };

  const assign = async (req: Request, res: Response<LeadDetail>) => {
    const { member } = signedIn(res);
    const id = String(req.params.id);
    const wanted = jsonBody<AssignRequest>(req).owner;
    if (wanted !== null && typeof wanted !== 'string') throw new HttpError(400, 'owner is an e-mail or null');
    const lead = await inbox.get(id);
    if (!lead) throw new HttpError(404, 'not found');
    if (!member.admin && lead.owner !== member.email)
      throw new HttpError(403, 'only its owner or an admin hands a lead on');
    const owner = wanted === null ? null : wanted.trim().toLowerCase();
    if (owner !== null) {
      const target = (await staff.members()).find((one) => one.email === owner && one.revokedAt === null);
      if (!target) throw new HttpError(400, 'no such member');
    }
    await inbox.assign(id, owner);
    await audit.append({ actor: member.email, action: 'assign', leadId: id, detail: owner ?? 'unassigned' });
    await answer(res, id);
  };

  // Tapping a call link dials on the staff member's own phone, which the server never sees: the app tells it (an empty
  // body: 204, audited), then asks what the call came to and sends that (the call counted, the lead changed).
  const call = async (req: Request, res: Response) => {
    const { member } = signedIn(res);
    const id = String(req.params.id);
    const body: { [K in keyof CallRequest]?: unknown } =
      req.body === undefined || (typeof req.body === 'object' && Object.keys(req.body as object).length === 0)
        ? {}
        : jsonBody<CallRequest>(req);
    if (body.outcome === undefined) {
      if (!(await inbox.get(id))) throw new HttpError(404, 'not found');
      await audit.append({ actor: member.email, action: 'call', leadId: id });
      res.status(204).end();
      return;
    }
    const problem =
      outcomeRule(body.outcome) ?? callbackRule(body.callbackAt, body.outcome as CallOutcome, deps.now());
    if (problem) throw new HttpError(400, problem);
    const outcome = body.outcome as CallOutcome;
    const callbackAt =
      typeof body.callbackAt === 'string' ? new Date(Date.parse(body.callbackAt)).toISOString() : undefined;
    const lead = await inbox.logCall(id, member.email, outcome, callbackAt);
    if (!lead) throw new HttpError(404, 'not found');
    await audit.append({ actor: member.email, action: 'call-outcome', leadId: id, detail: outcome });
    res.json(leadPage(lead, forms, (await inbox.related([id])).get(id)));
  };

  // "Merge into this one": the other lead is closed as merged into this one, kept with its notes and calls, and each
  // lead's page links the other. Audited on both leads.
  const merge = async (req: Request, res: Response<LeadDetail>) => {
    const { member } = signedIn(res);
    const id = String(req.params.id);
    const from = jsonBody<MergeRequest>(req).from;
    if (typeof from !== 'string' || from === '' || from.length > 100)
      throw new HttpError(400, 'from is the id of the lead to merge into this one');
    const outcome = await inbox.merge(id, from, member.email);
    if (outcome === 'missing') throw new HttpError(404, 'not found');
    if (outcome === 'same') throw new HttpError(400, 'a lead cannot be merged into itself');
    if (outcome === 'merged-already') throw new HttpError(409, 'one of the two leads was merged already');
    await audit.append({ actor: member.email, action: 'merge', leadId: id, detail: `from=${from}` });
    await audit.append({ actor: member.email, action: 'merged-into', leadId: from, detail: `into=${id}` });
    await answer(res, id);
  };

  return (router: Router) => {
    router.post('/leads/:id/merge', merge);
    router.post('/leads/:id/claim', claim);
    router.post('/leads/:id/release', release);
    router.post('/leads/:id/assign', assign);
    router.post('/leads/:id/calls', call);
  };
}
