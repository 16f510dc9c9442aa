// The speed-to-lead report (issue #30, item 9): per form and per week of the site's time zone, the promises made (one
// per lead), the share kept (first contact at or before the promised time, `promised_at`, which a callback never
// moves), and the median time from arrival to first contact. Counts and durations only: no patient data.
import type { SpeedToLeadRow } from '../../contracts/staff-admin.ts';
import type { FormDefinition } from '../../generated/content-types.ts';
import type { PromiseRow } from '../store/contract/inbox.ts';

const DAY_MS = 86_400_000;

const dayFormats = new Map<string, Intl.DateTimeFormat>();
/** The calendar date of `ms` in `timeZone`, as UTC midnight of that date (epoch ms). */
function localDate(ms: number, timeZone: string): number {
  let format = dayFormats.get(timeZone);
  if (!format)
    dayFormats.set(
      timeZone,
      (format = new Intl.DateTimeFormat('en-CA', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
      })),
    );
  const parts = Object.fromEntries(format.formatToParts(ms).map((part) => [part.type, part.value]));
  return Date.UTC(Number(parts.year), Number(parts.month) - 1, Number(parts.day));
}

/** The Monday of the week holding `ms` in `timeZone`, `2026-11-23`. */
export function weekOf(ms: number, timeZone: string): string {
  const date = localDate(ms, timeZone);
  const sinceMonday = (new Date(date).getUTCDay() + 6) % 7;
  return new Date(date - sinceMonday * DAY_MS).toISOString().slice(0, 10);
}

/**
 * The instants to read leads between for the `weeks` weeks up to `now`'s: from a day before the first Monday's UTC
 * midnight (no zone is a day off UTC), to just after `now`; rows outside those weeks are dropped by `speedToLead`.
 */
export function reportRange(now: number, weeks: number, timeZone: string): { from: string; to: string } {
  const firstMonday = Date.parse(weekOf(now, timeZone)) - (weeks - 1) * 7 * DAY_MS;
  return { from: new Date(firstMonday - DAY_MS).toISOString(), to: new Date(now + 1).toISOString() };
}

function median(values: number[]): number | null {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const middle = Math.floor(sorted.length / 2);
  return sorted.length % 2 === 1
    ? (sorted[middle] ?? 0)
    : ((sorted[middle - 1] ?? 0) + (sorted[middle] ?? 0)) / 2;
}

/** One row per week and form that had leads, newest week first, forms by name; weeks before the `weeks`th dropped. */
export function speedToLead(
  leads: readonly PromiseRow[],
  forms: ReadonlyMap<string, FormDefinition>,
  { now, weeks, timeZone }: { now: number; weeks: number; timeZone: string },
): SpeedToLeadRow[] {
  const firstWeek = new Date(Date.parse(weekOf(now, timeZone)) - (weeks - 1) * 7 * DAY_MS)
    .toISOString()
    .slice(0, 10);
  const groups = new Map<string, { week: string; formId: string; leads: PromiseRow[] }>();
  for (const lead of leads) {
    const week = weekOf(Date.parse(lead.createdAt), timeZone);
    if (week < firstWeek) continue;
    const key = `${week} ${lead.formId}`;
    const group = groups.get(key) ?? { week, formId: lead.formId, leads: [] };
    group.leads.push(lead);
    groups.set(key, group);
  }
  const rows = [...groups.values()].map(({ week, formId, leads: those }): SpeedToLeadRow => {
    let kept = 0;
    let missed = 0;
    const toContact: number[] = [];
    for (const lead of those) {
      const promised = Date.parse(lead.promisedAt);
      const contact = lead.firstContactAt === null ? null : Date.parse(lead.firstContactAt);
      if (contact !== null) {
        toContact.push((contact - Date.parse(lead.createdAt)) / 60_000);
        if (contact <= promised) kept += 1;
        else missed += 1;
      } else if (promised <= now) missed += 1;
    }
    const minutes = median(toContact);
    return {
      week,
      formId,
      formName: forms.get(formId)?.name ?? formId,
      promises: those.length,
      kept,
      missed,
      open: those.length - kept - missed,
      keptShare: kept + missed === 0 ? null : kept / (kept + missed),
      medianMinutesToContact: minutes === null ? null : Math.round(minutes * 10) / 10,
    };
  });
  return rows.sort((a, b) => b.week.localeCompare(a.week) || a.formName.localeCompare(b.formName));
}
