// Which parts of the staff API a member's roles open (contracts/staff-api.ts): the leads (their list, a lead, the desk,
// the live events about them) only to admissions and admins, so an editor or reviewer never reads patient data; the
// content API (server/content-staff/) only to the editorial roles and admins. The account routes (/me, passkeys,
// sessions) stay open to every member.
import type { RequestHandler } from 'express';
import { holdsAny, LEAD_ROLES, type StaffRole } from '../../contracts/staff-api.ts';
import { HttpError, signedIn } from './staff-context.ts';

/** Whether a path under /staff/api reads or changes leads. */
export const isLeadPath = (path: string): boolean =>
  path === '/events' || path === '/leads' || path === '/leads.csv' || path.startsWith('/leads/');

/** Refuses (403) a member none of whose roles is in `roles`, for the requests `applies` picks. */
export function requireRoles(
  roles: readonly StaffRole[],
  refusal: string,
  applies: (path: string) => boolean = () => true,
): RequestHandler {
  return (req, res, next) => {
    if (applies(req.path) && !holdsAny(signedIn(res).member.roles, roles)) throw new HttpError(403, refusal);
    next();
  };
}

/** The leads' gate, before the lead routes. */
export const leadsGate = requireRoles(LEAD_ROLES, 'the leads are for admissions staff', isLeadPath);
