// The inbox server's API (server/staff/), as the app calls it. Every request says it comes from the app
// (X-Staff-Request, which the server requires on every state-changing request) and carries the session cookie.
import type { LeadStatus } from '../server/store/contract/inbox.ts';

export type Me = {
  email: string;
  admin: boolean;
  passkeys: { id: string; createdAt: string; lastUsedAt: string | null }[];
};
export type ListedLead = {
  id: string;
  createdAt: string;
  formId: string;
  formName: string;
  name: string | null;
  phone: string | null;
  tel: string | null;
  urgency: string | null;
  status: LeadStatus;
  ageSeconds: number;
};
export type LeadNote = { id: string; author: string; createdAt: string; text: string };
export type Lead = {
  id: string;
  createdAt: string;
  formId: string;
  formName: string;
  name: string | null;
  /** The phone number as the visitor typed it, and its tap-to-call href (null when it is not a US number). */
  phone: string | null;
  tel: string | null;
  source: string;
  status: LeadStatus;
  fields: { name: string; label: string; value: string }[];
  notes: LeadNote[];
  history: { author: string; at: string; from: LeadStatus; to: LeadStatus }[];
};
export type AuditRow = {
  seq: number;
  at: string;
  actor: string;
  action: string;
  leadId: string | null;
  detail: string | null;
};
/** The list's filters, as the list's address and the API both spell them. */
export type LeadFilter = { status?: LeadStatus; form?: string; from?: string; to?: string; q?: string };

/** An answer other than 2xx, with what to tell the staff member. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

/** The server's 503 while too many passkey ceremonies are open at once: its own words say it best. */
const BUSY = 'too many sign-ins in progress; try again in a few minutes';

/** What a failed request means to the person using the app; `retryAfter` in seconds from a 429. */
export function explain(
  status: number,
  serverMessage: string | undefined,
  retryAfter: string | null,
): string {
  if (status === 401) return 'You are signed out. Sign in again to continue.';
  if (status === 403)
    return serverMessage === 'cross-site request'
      ? 'The request was refused because it did not come from the inbox itself. Reload the page and try again.'
      : serverMessage === 'invalid or expired invitation'
        ? 'This invitation link is not valid: it was already used or it has expired. Ask an admin for a new one.'
        : 'Only admins can do this.';
  if (status === 404) return 'That lead was not found.';
  if (status === 429) return `Too many attempts, try again in ${Number(retryAfter) || 60} seconds.`;
  if (status === 503 && serverMessage !== BUSY)
    return 'The inbox cannot reach its database right now. Try again in a minute.';
  // The server's own words for the rest (a passkey that did not verify, one registered already, a bad filter).
  return serverMessage
    ? `${serverMessage.charAt(0).toUpperCase()}${serverMessage.slice(1)}.`
    : `Something went wrong (${status}).`;
}

/** Called with every 401, so the app can send the staff member to sign in and back after. */
let onSignedOut: () => void = () => undefined;
export const whenSignedOut = (handler: () => void) => {
  onSignedOut = handler;
};

export async function request<T>(
  path: string,
  init: { method?: string; body?: unknown; keepalive?: boolean } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`/staff/api${path}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        'X-Staff-Request': '1',
        ...(init.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      body: init.body === undefined ? undefined : JSON.stringify(init.body),
      // Outlives the page, so a tel: link that hands over to the phone app does not cancel it.
      keepalive: init.keepalive ?? false,
    });
  } catch {
    throw new ApiError(0, 'The inbox server cannot be reached. Check the connection and try again.');
  }
  if (response.status === 204) return undefined as T;
  const body = (await response.json().catch(() => undefined)) as { error?: string } | undefined;
  if (!response.ok) {
    if (response.status === 401 && !path.startsWith('/signin') && !path.startsWith('/enrol')) onSignedOut();
    throw new ApiError(
      response.status,
      explain(response.status, body?.error, response.headers.get('Retry-After')),
    );
  }
  return body as T;
}

/** The query string of a filter (and cursor), leaving out what is unset. */
export function query(filter: LeadFilter & { before?: string }): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, value);
  const text = params.toString();
  return text ? `?${text}` : '';
}

export const api = {
  me: () => request<Me>('/me'),
  leads: (filter: LeadFilter, before?: string) =>
    request<{ leads: ListedLead[]; next: string | null }>(`/leads${query({ ...filter, before })}`),
  lead: (id: string) => request<Lead>(`/leads/${encodeURIComponent(id)}`),
  setStatus: (id: string, status: LeadStatus) =>
    request<Lead>(`/leads/${encodeURIComponent(id)}/status`, { method: 'POST', body: { status } }),
  addNote: (id: string, text: string) =>
    request<LeadNote>(`/leads/${encodeURIComponent(id)}/notes`, { method: 'POST', body: { text } }),
  /** Tells the server a call link was tapped, for the audit log; never holds up the call. */
  recordCall: (id: string) => {
    void request<void>(`/leads/${encodeURIComponent(id)}/calls`, { method: 'POST', keepalive: true }).catch(
      () => undefined,
    );
  },
  audit: (before?: string) =>
    request<{ rows: AuditRow[]; next: string | number | null }>(`/audit${query({ before })}`),
  signOut: () => request<void>('/signout', { method: 'POST' }),
};
/** The CSV export's address for the list's filters: a plain download, with the session cookie. */
export const csvHref = (filter: LeadFilter) => `/staff/api/leads.csv${query(filter)}`;
/** A lead's page in the app. */
export const leadPath = (id: string) => `/leads/${encodeURIComponent(id)}`;
