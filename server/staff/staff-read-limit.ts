// How many leads one staff member may read per window: every lead a list page or a search shows, every lead page
// opened, every row of an export. Far above an admissions shift's needs; a script paging through every lead's name
// and phone meets it, and is answered 429 with Retry-After until the window ends. Counted where the lead store counts
// (PostgreSQL across instances), per member. The first refusal of each window is logged and audited (one row per
// member per window, however many requests it refuses); never with patient data.
import type { ServerResponse } from 'node:http';
import { RateLimiterRes } from 'rate-limiter-flexible';
import type { AuditLog } from '../store/contract/audit-log.ts';
import type { RateCounters } from '../store/contract/rate-counters.ts';
import { memoryCounters } from '../store/shared/memory-counters.ts';
import type { Logger } from '../logger.ts';
import { HttpError } from './staff-context.ts';

export const READ_WINDOW_SECONDS = 10 * 60;
/** Leads a member may read per 10 minutes (STAFF_READ_LIMIT). */
export const STAFF_READ_LIMIT = 10_000;

export interface ReadLimit {
  /** Refuses (429) a member who has used up the window's reads. */
  check(member: string, res: ServerResponse): Promise<void>;
  /** Counts leads sent (a page's rows, a lead page, an export's rows): the next read is refused once over. */
  spent(member: string, count: number): Promise<void>;
}

export function readLimit(
  deps: { audit: AuditLog; logger: Logger },
  limit = STAFF_READ_LIMIT,
  counters: RateCounters = memoryCounters,
): ReadLimit {
  const reads = counters({ name: 'staff-reads', points: limit, duration: READ_WINDOW_SECONDS });
  const refusals = counters({ name: 'staff-read-refusals', points: 1, duration: READ_WINDOW_SECONDS });
  const firstRefusal = (member: string) =>
    refusals.consume(member).then(
      () => true,
      (error: unknown) => {
        if (error instanceof RateLimiterRes) return false;
        throw error;
      },
    );
  return {
    async check(member, res) {
      const counted = await reads.get(member);
      if (!counted || counted.remainingPoints > 0) return;
      const seconds = Math.max(1, Math.ceil(counted.msBeforeNext / 1000));
      if (await firstRefusal(member)) {
        deps.logger.warn(
          { actor: member, limit, retryAfter: seconds },
          'staff member over the lead read limit',
        );
        await deps.audit.append({ actor: member, action: 'read-limit', detail: `limit=${limit}` });
      }
      res.setHeader('Retry-After', String(seconds));
      throw new HttpError(429, 'too many leads read in a short time; try again in a few minutes');
    },
    async spent(member, count) {
      if (count > 0) await reads.penalty(member, count);
    },
  };
}
