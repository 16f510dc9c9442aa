// The staff API's admin screens, shift and merge calls (contracts/staff-admin.ts), on the app's one request function.
import type {
  InviteAnswer,
  MemberRequest,
  MergeRequest,
  RolesRequest,
  ShiftState,
  SpeedToLeadReport,
  Team,
} from '../../contracts/staff-admin.ts';
import type { LeadDetail, StaffRole } from '../../contracts/staff-api.ts';
import { request } from '../api.ts';

/** The speed-to-lead report's weeks when none are chosen (the server's default too). */
export const DEFAULT_WEEKS = 8;

export const adminApi = {
  team: () => request<Team>('/team'),
  invite: (email: string, roles: StaffRole[], reinstate: boolean) =>
    request<InviteAnswer>('/team/invite', { method: 'POST', body: { email, roles, reinstate } }),
  cancelInvite: (email: string) =>
    request<void>('/team/cancel', { method: 'POST', body: { email } satisfies MemberRequest }),
  revoke: (email: string) =>
    request<void>('/team/revoke', { method: 'POST', body: { email } satisfies MemberRequest }),
  setRoles: (email: string, roles: StaffRole[]) =>
    request<void>('/team/roles', { method: 'POST', body: { email, roles } satisfies RolesRequest }),
  speedToLead: (weeks: number) => request<SpeedToLeadReport>(`/reports/speed-to-lead?weeks=${weeks}`),
  shift: () => request<ShiftState>('/shift'),
  setShift: (onShift: boolean) =>
    request<ShiftState>('/shift', {
      method: 'POST',
      body: { onShift } satisfies Pick<ShiftState, 'onShift'>,
    }),
  merge: (id: string, from: string) =>
    request<LeadDetail>(`/leads/${encodeURIComponent(id)}/merge`, {
      method: 'POST',
      body: { from } satisfies MergeRequest,
    }),
};

/** A role as the screens name it: its name, capitalised (the list itself is the server's STAFF_ROLES). */
export const roleLabel = (role: string): string => `${role.charAt(0).toUpperCase()}${role.slice(1)}`;
