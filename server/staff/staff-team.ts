// The admins' screens' API: the staff list with invitations waiting, invite (the link at the address the admin is
// on), cancel an invitation, revoke, change roles (staff-management.ts: the CLI's rules); the speed-to-lead report; and
// every member's shift for round robin. Every act and read is audited with the admin's e-mail. Inviting and changing
// roles hand out access, so they need this session's passkey check of the last 5 minutes, as adding a passkey does;
// revoking and cancelling only take access away.
import type { Request, Response, Router } from 'express';
import { emailRule, rolesRule } from '../../contracts/desk-rules.ts';
import type {
  InviteAnswer,
  MemberRequest,
  RolesRequest,
  ShiftState,
  SpeedToLeadReport,
  Team,
} from '../../contracts/staff-admin.ts';
import { STAFF_ROLES, type StaffRole } from '../../contracts/staff-api.ts';
import { RevokedMemberError } from '../store/contract/staff-store.ts';
import { normaliseEmail, normaliseRoles } from '../store/shared/staff-records.ts';
import { HttpError, iso, jsonBody, signedIn, type StaffDeps } from './staff-context.ts';
import { DEFAULT_TIME_ZONE } from './staff-export-rows.ts';
import {
  cancelInvitations,
  changeRoles,
  enrolLink,
  inviteMember,
  NotRevokedError,
  revokeMember,
} from './staff-management.ts';
import { requireFreshAssertion } from './staff-passkeys.ts';
import { reportRange, speedToLead } from './speed-to-lead.ts';

const DEFAULT_WEEKS = 8;
const MAX_WEEKS = 52;

function requireAdmin(res: Response): string {
  const { member } = signedIn(res);
  if (!member.admin) throw new HttpError(403, 'admins only');
  return member.email;
}

/** The e-mail of a request's body, normalised; 400 with the inbox form's own words when it is not one. */
function emailOf(req: Request): string {
  const { email } = jsonBody<MemberRequest>(req);
  const problem = emailRule(email);
  const normalised = problem === null ? normaliseEmail(String(email)) : undefined;
  if (!normalised) throw new HttpError(400, problem ?? 'give an e-mail address');
  return normalised;
}

function rolesOf(req: Request): StaffRole[] {
  const { roles } = jsonBody<RolesRequest>(req);
  const problem = rolesRule(roles);
  if (problem !== null) throw new HttpError(400, problem);
  return normaliseRoles(roles as StaffRole[]);
}

/**
 * The origin the admin is on: the staff area answers only where its Host is STAFF_ORIGIN's (staff-origin.ts refuses
 * any other with 421 before this runs), so this is the address in their browser, and the one their passkeys belong to;
 * never a host from configuration that the request did not come to.
 */
const requestOrigin = (req: Request, deps: StaffDeps): string =>
  `${new URL(deps.origin).protocol}//${req.headers.host ?? new URL(deps.origin).host}`;

export function teamRoutes(deps: StaffDeps, roundRobin: boolean) {
  const { staff, audit, inbox } = deps;

  const team = async (_req: Request, res: Response<Team>) => {
    const actor = requireAdmin(res);
    const now = deps.now();
    const [members, invites] = await Promise.all([staff.members(), staff.invites(now)]);
    await audit.append({ actor, action: 'staff-view' });
    res.json({
      members: members.map((member) => ({
        email: member.email,
        roles: member.roles,
        passkeys: member.passkeys,
        lastSignInAt: iso(member.lastSignInAt),
        revokedAt: iso(member.revokedAt),
        onShift: member.onShift,
      })),
      invites: invites.map((invite) => ({
        email: invite.email,
        roles: invite.roles,
        kind: invite.kind,
        createdAt: new Date(invite.createdAt).toISOString(),
        expiresAt: new Date(invite.expiresAt).toISOString(),
      })),
      roles: [...STAFF_ROLES],
    });
  };

  const invite = async (req: Request, res: Response<InviteAnswer>) => {
    const actor = requireAdmin(res);
    const email = emailOf(req);
    const roles = rolesOf(req);
    const reinstate = jsonBody(req).reinstate === true;
    requireFreshAssertion(res, deps.now());
    try {
      const invited = await inviteMember(deps, { email, roles, reinstate, now: deps.now(), actor });
      res.status(201).json({
        email,
        kind: invited.kind,
        link: enrolLink(requestOrigin(req, deps), invited.token),
        expiresAt: new Date(invited.expiresAt).toISOString(),
      });
    } catch (error) {
      if (error instanceof RevokedMemberError)
        throw new HttpError(
          409,
          `${email} was revoked: tick "Let a revoked member back in" to invite them again`,
        );
      if (error instanceof NotRevokedError) throw new HttpError(409, error.message);
      throw error;
    }
  };

  const cancel = async (req: Request, res: Response) => {
    const actor = requireAdmin(res);
    const email = emailOf(req);
    if ((await cancelInvitations(deps, email, deps.now(), actor)) === 0)
      throw new HttpError(404, `no invitation for ${email} is waiting`);
    res.status(204).end();
  };

  const revoke = async (req: Request, res: Response) => {
    const actor = requireAdmin(res);
    const email = emailOf(req);
    if (email === actor) throw new HttpError(400, 'you cannot revoke yourself; another admin can');
    if (!(await revokeMember(deps, email, deps.now(), actor))) throw new HttpError(404, 'no such member');
    res.status(204).end();
  };

  const roles = async (req: Request, res: Response) => {
    const actor = requireAdmin(res);
    const email = emailOf(req);
    const wanted = rolesOf(req);
    if (email === actor && !wanted.includes('admin'))
      throw new HttpError(400, 'you cannot take away your own admin role; another admin can');
    requireFreshAssertion(res, deps.now());
    if (!(await changeRoles(deps, email, wanted, actor))) throw new HttpError(404, 'no such member');
    res.status(204).end();
  };

  const report = async (req: Request, res: Response<SpeedToLeadReport>) => {
    const actor = requireAdmin(res);
    const text = typeof req.query.weeks === 'string' ? req.query.weeks : undefined;
    const weeks = text === undefined ? DEFAULT_WEEKS : Number(text);
    if (!Number.isInteger(weeks) || weeks < 1 || weeks > MAX_WEEKS)
      throw new HttpError(400, `weeks is 1 to ${MAX_WEEKS}`);
    const timeZone = deps.timeZone ?? DEFAULT_TIME_ZONE;
    const now = deps.now();
    const { from, to } = reportRange(now, weeks, timeZone);
    const rows = speedToLead(await inbox.promises(from, to), deps.forms, { now, weeks, timeZone });
    await audit.append({ actor, action: 'report-view', detail: `speed-to-lead weeks=${weeks}` });
    res.json({ timeZone, weeks, rows });
  };

  const shiftOf = async (res: Response): Promise<ShiftState> => {
    const { member } = signedIn(res);
    const listing = (await staff.members()).find((one) => one.id === member.id);
    return { onShift: listing?.onShift ?? false, roundRobin };
  };

  const shift = async (_req: Request, res: Response<ShiftState>) => {
    res.json(await shiftOf(res));
  };

  const setShift = async (req: Request, res: Response<ShiftState>) => {
    const { member } = signedIn(res);
    const { onShift } = jsonBody<ShiftState>(req);
    if (typeof onShift !== 'boolean') throw new HttpError(400, 'onShift is true or false');
    await staff.setOnShift(member.id, onShift);
    await audit.append({ actor: member.email, action: onShift ? 'shift-start' : 'shift-end' });
    res.json(await shiftOf(res));
  };

  return (router: Router) => {
    router.get('/team', team);
    router.post('/team/invite', invite);
    router.post('/team/cancel', cancel);
    router.post('/team/revoke', revoke);
    router.post('/team/roles', roles);
    router.get('/reports/speed-to-lead', report);
    router.get('/shift', shift);
    router.post('/shift', setShift);
  };
}
