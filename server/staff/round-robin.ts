// Round robin (ROUND_ROBIN=on): each new lead this instance stores goes to the member on shift whose turn is oldest
// (InboxStore.assignNext decides in one transaction, under a lock on PostgreSQL, so instances take turns fairly). It
// runs after the lead is stored and answered: a lead it cannot assign (no one on shift, a store error) stays unowned,
// on the "needs action" queue and escalated at its due time like any other. Before each choice, members on shift whose
// sessions have all ended are taken off shift (shift-end.ts): a session can end with no request to notice it.
import type { Logger } from '../logger.ts';
import type { LeadStore } from '../store/contract/lead-store.ts';
import { endShiftsWithoutSession, type ShiftEndDeps } from './shift-end.ts';

/** The actor of a round-robin assignment in the audit log. */
export const ROUND_ROBIN_ACTOR = 'round-robin';

export function roundRobin(
  store: Pick<LeadStore, 'inbox' | 'audit' | 'staff'>,
  logger: Logger,
  { now = Date.now, sessionLimits }: Pick<ShiftEndDeps, 'sessionLimits'> & { now?: () => number },
): (leadId: string) => Promise<string | null> {
  return async (leadId) => {
    try {
      await endShiftsWithoutSession(
        { staff: store.staff, audit: store.audit, now, sessionLimits },
        { why: 'session over' },
      );
      const owner = await store.inbox.assignNext(leadId);
      if (owner !== null)
        await store.audit.append({ actor: ROUND_ROBIN_ACTOR, action: 'assign', leadId, detail: owner });
      return owner;
    } catch (error) {
      logger.error(
        { err: (error as Error).message, leadId },
        'round-robin assignment failed: the lead stays unassigned',
      );
      return null;
    }
  };
}
