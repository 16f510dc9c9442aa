// The list's address: its filters live in the route's search, so a reload, a shared link and the CSV export keep them.
// Dates are the staff member's local calendar dates; the API gets them as instants. The search term is not among them:
// it stays in memory (search-term.ts), out of the address and the browser's history.
import { isLeadStatus, type LeadFilter, type LeadStatus } from '../../contracts/staff-api.ts';
import { localDayStart } from '../format.ts';

/** The list's address: `from` and `to` are local dates (`YYYY-MM-DD`), both days included. */
export type ListSearch = {
  /** `all`: every lead, newest first; unset: "needs action", open leads soonest due first. */
  view?: 'all';
  owner?: 'mine' | 'unassigned';
  status?: LeadStatus;
  form?: string;
  from?: string;
  to?: string;
};
/** The list's filters as the screen shows them: the address's, and the search term (in memory only). */
export type ListFilters = ListSearch & { q?: string };

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

const localDate = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;

export const validateListSearch = (search: Record<string, unknown>): ListSearch => ({
  view: search.view === 'all' ? 'all' : undefined,
  owner: search.owner === 'mine' || search.owner === 'unassigned' ? search.owner : undefined,
  status: isLeadStatus(search.status) ? search.status : undefined,
  form: text(search.form),
  from: localDate(search.from),
  to: localDate(search.to),
});

/** Only a path inside the app, so a crafted sign-in link cannot send a signed-in person elsewhere. */
export const validateNext = (search: Record<string, unknown>): { next?: string } => {
  const next = text(search.next);
  return { next: next?.startsWith('/') && !next.startsWith('//') ? next : undefined };
};

export const toApiFilter = (search: ListFilters): LeadFilter => ({
  // A search looks through every lead: what someone asks for by name may be settled already.
  view: search.view === 'all' || search.q ? undefined : 'needs-action',
  owner: search.owner,
  status: search.status,
  form: search.form,
  from: search.from ? localDayStart(search.from) : undefined,
  to: search.to ? localDayStart(search.to, true) : undefined,
  q: search.q,
});
