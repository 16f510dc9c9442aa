// The staff API's admin screens and the desk's second part (issue #30): the speed-to-lead report, staff management,
// shifts for round robin, and merging two leads. Types only, shared by the server (server/staff/) and the inbox.
import type { StaffRole } from './staff-api.ts';

/** Whom an invitation is for: someone new, a current member (a passkey more), or a revoked member let back in. */
export type InviteKind = 'new member' | 'add a passkey' | 'reinstatement';

/** GET /reports/speed-to-lead?weeks=N (admins; N 1 to 52, 8 when unset): one row per week and form, newest week first. */
export interface SpeedToLeadReport {
  /** SITE_TIMEZONE: the weeks are its weeks, Monday to Sunday. */
  timeZone: string;
  weeks: number;
  rows: SpeedToLeadRow[];
}

/** No patient data: counts and durations only. */
export interface SpeedToLeadRow {
  /** The week's Monday in the site's time zone, `2026-11-23`. */
  week: string;
  formId: string;
  formName: string;
  /** Leads received that week on that form: each is a promise. */
  promises: number;
  /** First contact at or before the promised time. */
  kept: number;
  /** First contact after it, or none and the time has passed. */
  missed: number;
  /** No contact yet, and the promised time still ahead. */
  open: number;
  /** kept / (kept + missed), 0 to 1; null when none has fallen due. */
  keptShare: number | null;
  /** From arrival to first contact, over the leads contacted; null when none was. */
  medianMinutesToContact: number | null;
}

/** A member as the staff screen lists them (GET /team, admins). */
export interface TeamMember {
  email: string;
  roles: StaffRole[];
  passkeys: number;
  /** ISO 8601, or null. */
  lastSignInAt: string | null;
  revokedAt: string | null;
  onShift: boolean;
}

/** An invitation still waiting (never its link). */
export interface TeamInvite {
  email: string;
  roles: StaffRole[];
  kind: InviteKind;
  createdAt: string;
  expiresAt: string;
}

/** GET /team. */
export interface Team {
  members: TeamMember[];
  invites: TeamInvite[];
  /** The roles an admin may give: STAFF_ROLES. */
  roles: StaffRole[];
}

/**
 * POST /team/invite ({ email, roles, reinstate? }; a fresh passkey check, as adding a passkey needs): the one-time link
 * at the address the admin is on, shown once.
 */
export interface InviteAnswer {
  email: string;
  kind: InviteKind;
  link: string;
  expiresAt: string;
}

/** POST /team/cancel and POST /team/revoke. */
export interface MemberRequest {
  email: string;
}

/** POST /team/roles (a fresh passkey check): the member's roles from now on. */
export interface RolesRequest {
  email: string;
  roles: StaffRole[];
}

/** GET /shift and POST /shift ({ onShift }): whether the member takes round-robin leads, and whether it is on. */
export interface ShiftState {
  onShift: boolean;
  /** ROUND_ROBIN: new leads go to the members on shift in turn. */
  roundRobin: boolean;
}

/** POST /leads/:id/merge: merge lead `from` into this one; answered with the kept lead's `LeadDetail`. */
export interface MergeRequest {
  from: string;
}
