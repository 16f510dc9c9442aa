// The list's address: its filters live in the route's search, so a reload, a shared link and the CSV export keep them.
// Dates are the staff member's local calendar dates; the API gets them as instants. The search term is not among them:
// it stays in memory (search-term.ts), out of the address and the browser's history.
import { LEAD_STATUSES, type LeadFilter, type LeadStatus } from '../../contracts/staff-api.ts';
import { localDayStart } from '../format.ts';

/** How the list is ordered: by the server (`due` in "needs action", `arrival` otherwise), or within what is shown. */
export type ListSort = 'due' | 'urgency' | 'arrival';
export const LIST_SORTS: readonly ListSort[] = ['due', 'urgency', 'arrival'];

/** The list's address: `from` and `to` are local dates (`YYYY-MM-DD`), both days included. */
export type ListSearch = {
  /** `all`: every lead but the closed (unless picked), newest first; unset: "needs action", soonest due first. */
  view?: 'all';
  owner?: 'mine' | 'unassigned';
  /** One status or several, comma-separated, as the API takes them (`new,not-reached`). */
  status?: string;
  /** Unset: the view's own order (due time in "needs action", arrival in "all"). */
  sort?: ListSort;
  form?: string;
  from?: string;
  to?: string;
};
/** The list's filters as the screen shows them: the address's, and the search term (in memory only). */
export type ListFilters = ListSearch & { q?: string };

const text = (value: unknown) => (typeof value === 'string' && value.trim() ? value.trim() : undefined);

const localDate = (value: unknown) =>
  typeof value === 'string' && /^\d{4}-\d{2}-\d{2}$/.test(value) ? value : undefined;

/** The statuses of an address's `status`, each known, in the contract's order, without repeats. */
export function statusesOf(value: unknown): LeadStatus[] {
  const named = typeof value === 'string' ? value.split(',') : [];
  return LEAD_STATUSES.filter((status) => named.includes(status));
}

/** Every status but `closed`: what a list shows when no status is picked (closed leads are out of the way). */
export const NOT_CLOSED: readonly LeadStatus[] = LEAD_STATUSES.filter((status) => status !== 'closed');

/** The order the server gives a view; any other sort is made in the browser, within the leads loaded. */
export const serverSort = (view: ListSearch['view']): ListSort => (view === 'all' ? 'arrival' : 'due');

export const validateListSearch = (search: Record<string, unknown>): ListSearch => ({
  view: search.view === 'all' ? 'all' : undefined,
  owner: search.owner === 'mine' || search.owner === 'unassigned' ? search.owner : undefined,
  status: statusesOf(search.status).join(',') || undefined,
  sort: LIST_SORTS.find(
    (sort) => sort === search.sort && sort !== serverSort(search.view === 'all' ? 'all' : undefined),
  ),
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
  // No status picked: closed leads stay out of the list (a search looks through them too: it may be for one).
  status: search.status ?? (search.view === 'all' && !search.q ? NOT_CLOSED.join(',') : undefined),
  form: search.form,
  from: search.from ? localDayStart(search.from) : undefined,
  to: search.to ? localDayStart(search.to, true) : undefined,
  q: search.q,
});
