// A shift lasts no longer than its member's session (round robin, ROUND_ROBIN=on): a member on shift who signs out, or
// whose last session ends (idle limit, time limit, ended from another device), is taken off shift, so the rotation stops
// giving them leads; each end is audited as `shift-end` with its member as the actor (the shift was theirs). A session
// that ends with no request to notice it (the browser closed, the member gone home) is caught by the rotation itself,
// which sweeps before each assignment (round-robin.ts).
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { StaffStore } from '../store/contract/staff-store.ts';

export interface ShiftEndDeps {
  staff: Pick<StaffStore, 'endShiftsWithoutSession'>;
  audit: Pick<AuditLog, 'append'>;
  now: () => number;
  /** The staff area's session limits (staff-session-life.ts' SessionLimits). */
  sessionLimits: Parameters<StaffStore['endShiftsWithoutSession']>[0];
}

/**
 * Ends the shift of every member on shift without a live session (only `staffId`'s, when given), and audits each:
 * `why` says what ended the session when it is known (a sign-out), else the sweep found it over.
 */
export async function endShiftsWithoutSession(
  { staff, audit, now, sessionLimits }: ShiftEndDeps,
  { staffId, why }: { staffId?: string; why: string },
): Promise<string[]> {
  const ended = await staff.endShiftsWithoutSession(sessionLimits, now(), staffId);
  for (const email of ended)
    await audit.append({ actor: email, action: 'shift-end', detail: `${why}: no session left` });
  return ended;
}
