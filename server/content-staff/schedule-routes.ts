// A change set's scheduled publish through the content API (content-routes.ts wires them): a publisher sets or moves
// it (`POST /changes/<id>/schedule { at }`, an ISO instant; the staff screens pick it on SITE_TIMEZONE's clock) and
// cancels it while it is pending (`DELETE`). Both behind the same role, fresh-passkey and cross-site rules, audited.
// The server's timer runs it (change-scheduler.ts).
import type { Request, Response } from 'express';
import type { StaffRole } from '../../contracts/staff-api.ts';
import type { ScheduleState } from '../store/contract/change-store.ts';
import { HttpError, jsonBody, type SignedIn } from '../staff/staff-context.ts';
import { changeSet, checkApproved, type ContentContext } from './publish-change.ts';

/** Why a schedule cannot be cancelled, by where it stands. */
const SCHEDULE_NOT_PENDING: Readonly<Record<ScheduleState | 'none', string>> = {
  // Only when the schedule moved between the read and the cancel: the member reloads and sees it.
  pending: 'its scheduled publish changed meanwhile: reload the change set',
  none: 'this change set has no scheduled publish to cancel',
  running: 'its scheduled publish is running now: it cannot be cancelled',
  done: 'its scheduled publish is done: the change set is published',
  // Never: a failed schedule is cancelled (dismissed), like a pending one.
  failed: 'its scheduled publish failed meanwhile: reload the change set',
};

/** content-routes.ts's checks: the member's roles (403 saying who may), a passkey check of the last 5 minutes (401). */
export interface ScheduleGuards {
  need: (res: Response, roles: readonly StaffRole[], who: string) => SignedIn;
  freshPasskey: (context: ContentContext, signed: SignedIn) => void;
}

export function scheduleRoutes(context: ContentContext, { need, freshPasskey }: ScheduleGuards) {
  const { changes, audit } = context;

  const schedule = async (req: Request, res: Response) => {
    const signed = need(res, ['publisher'], 'publishers');
    const set = await changeSet(context, String(req.params.id));
    const at = jsonBody(req).at;
    const time = typeof at === 'string' && /^\d{4}-\d{2}-\d{2}T/.test(at) ? Date.parse(at) : Number.NaN;
    if (Number.isNaN(time)) throw new HttpError(400, 'at: an ISO 8601 time');
    await checkApproved(context, set);
    freshPasskey(context, signed);
    if (!(await changes.schedule(set.id, time, signed.member.email, context.now())))
      throw new HttpError(409, 'its scheduled publish is running now: it cannot be moved');
    await audit.append({
      actor: signed.member.email,
      action: 'change-schedule',
      detail: `${set.id} at ${new Date(time).toISOString()}`,
    });
    res.json({ schedule: { at: new Date(time).toISOString(), state: 'pending' } });
  };

  // A publisher takes back a pending schedule (the same rules as making one), or dismisses a failed one, which clears
  // /healthz's degraded (the failure stays in the audit log, 'change-schedule-failed'). One running or done: 409 with
  // why. The store removes it only if it is still pending or failed, so a tick that claimed it a moment before wins
  // and the answer says so.
  const cancel = async (req: Request, res: Response) => {
    const signed = need(res, ['publisher'], 'publishers');
    const set = await changeSet(context, String(req.params.id));
    const notPending = (state: ScheduleState | null): HttpError =>
      new HttpError(409, SCHEDULE_NOT_PENDING[state ?? 'none']);
    const state = set.schedule?.state ?? null;
    if (state !== 'pending' && state !== 'failed') throw notPending(state);
    freshPasskey(context, signed);
    const outcome = await changes.cancelSchedule(set.id, context.now());
    if (!outcome.cancelled) throw notPending(outcome.state);
    await audit.append({
      actor: signed.member.email,
      action: 'change-schedule-cancel',
      detail: `${set.id} ${state === 'failed' ? 'failed' : 'was'} at ${new Date(set.schedule?.at ?? 0).toISOString()}`,
    });
    res.json({ schedule: null });
  };

  return { schedule, cancel };
}
