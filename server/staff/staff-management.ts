// Who may use the inbox, as an admin changes it: invite, cancel an invitation, revoke, change roles. One set of rules
// for the command line (server/cli/staff.ts) and the inbox (staff-team.ts), over the same store functions; each act is
// audited with its actor (the admin's e-mail, or `cli:<os user>`), the caller saying it in its own words.
import type { StaffRole } from '../../contracts/staff-api.ts';
import type { AuditLog } from '../store/contract/audit-log.ts';
import {
  PASSKEY_INVITE_VALID_MS,
  type InviteKind,
  type MemberProfile,
  type StaffMember,
  type StaffStore,
} from '../store/contract/staff-store.ts';

/** A new member's invitation (or a reinstatement's) is good this long; a current member's, 1 hour. */
export const INVITE_VALID_MS = 24 * 60 * 60 * 1000;

/** `--reinstate` (or the inbox's) asked for an e-mail that is not a revoked member's. */
export class NotRevokedError extends Error {
  constructor(readonly email: string) {
    super(`${email} is not a revoked member: reinstating only lets a revoked member back in`);
  }
}

export interface Invited {
  token: string;
  kind: InviteKind;
  /** How long the link works: INVITE_VALID_MS, or PASSKEY_INVITE_VALID_MS for a current member. */
  validMs: number;
  expiresAt: number;
}

/** The enrolment link of an invitation, at `origin` (where the staff area answers; the token after #, never logged). */
export const enrolLink = (origin: string, token: string): string => `${origin}/staff/enrol#${token}`;

/**
 * Invites `email` (normalised) with `roles`, and audits it as `invite` or `reinstate`. Throws RevokedMemberError for a
 * revoked member's e-mail without `reinstate`, NotRevokedError for `reinstate` of anyone else.
 */
export async function inviteMember(
  { staff, audit }: { staff: StaffStore; audit: AuditLog },
  request: {
    email: string;
    roles: readonly StaffRole[];
    reinstate: boolean;
    now: number;
    actor: string;
    /** The display name and clinical credential the enrolment gives (unchanged when absent). */
    profile?: MemberProfile;
  },
): Promise<Invited> {
  const { email, roles, reinstate, now, actor, profile } = request;
  const existing = (await staff.members()).find((member) => member.email === email);
  if (reinstate && existing?.revokedAt == null) throw new NotRevokedError(email);
  // A current member's link adds a passkey to their account: it lives an hour, not a day.
  const validMs = existing && existing.revokedAt === null ? PASSKEY_INVITE_VALID_MS : INVITE_VALID_MS;
  const invited = await staff.createInvite(email, roles, now + validMs, { now, reinstate, profile });
  const admin = roles.includes('admin');
  await audit.append({
    actor,
    action: reinstate ? 'reinstate' : 'invite',
    detail: `${email}${admin ? ' admin' : ''}`,
  });
  return { token: invited.token, kind: invited.kind, validMs, expiresAt: now + validMs };
}

/** Cancels `email`'s waiting invitations and audits it; how many (0: none was waiting, nothing audited). */
export async function cancelInvitations(
  { staff, audit }: { staff: StaffStore; audit: AuditLog },
  email: string,
  now: number,
  actor: string,
): Promise<number> {
  const cancelled = await staff.cancelInvites(email, now);
  if (cancelled > 0)
    await audit.append({ actor, action: 'invite-cancel', detail: `${email} invitations=${cancelled}` });
  return cancelled;
}

/** Revokes the member (sessions, passkeys, invitations) and audits it; undefined when there is no such member. */
export async function revokeMember(
  { staff, audit }: { staff: StaffStore; audit: AuditLog },
  email: string,
  now: number,
  actor: string,
): Promise<(StaffMember & { invitesCancelled: number }) | undefined> {
  const member = await staff.revoke(email, now);
  if (!member) return undefined;
  const cancelled = member.invitesCancelled;
  await audit.append({
    actor,
    action: 'revoke',
    detail: `${member.email}${cancelled ? ` invitations-cancelled=${cancelled}` : ''}`,
  });
  return member;
}

/** Gives a current member exactly `roles`, audited with the roles before and after; undefined when no such member. */
export async function changeRoles(
  { staff, audit }: { staff: StaffStore; audit: AuditLog },
  email: string,
  roles: readonly StaffRole[],
  actor: string,
): Promise<StaffMember | undefined> {
  const before = (await staff.members()).find(
    (member) => member.email === email && member.revokedAt === null,
  );
  if (!before) return undefined;
  const after = await staff.setRoles(email, roles);
  if (!after) return undefined;
  await audit.append({
    actor,
    action: 'roles',
    detail: `${email} ${before.roles.join(',')} -> ${after.roles.join(',')}`,
  });
  return after;
}
