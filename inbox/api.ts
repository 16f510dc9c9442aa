// The staff API as the app calls it (its requests and answers are typed in contracts/staff-api.ts, which the server's
// handlers are typed against too). Every request says it comes from the app (X-Staff-Request, which the server
// requires on every state-changing request) and carries the session cookie. A request the app makes on its own, not at
// the staff member's click, key press or navigation, says so (`background`: X-Staff-Background), so that it neither
// keeps the session alive nor counts as the member's read.
import {
  BACKGROUND_HEADER,
  REFUSED,
  STAFF_API_PATH,
  type AuditPage,
  type CallRequest,
  type EndedSessions,
  type ErrorAnswer,
  type LeadDetail,
  type LeadFilter,
  type LeadNote,
  type LeadsPage,
  type LeadsQuery,
  type LeadStatus,
  type Me,
  type NoteRequest,
  type SearchRequest,
  type SessionClock,
  type SessionsList,
  type StatusRequest,
} from '../contracts/staff-api.ts';
import { noteSessionClock } from './idle.ts';

/** An answer other than 2xx, with what to tell the staff member. */
export class ApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
    /** The server's own words (its `error`), when it gave any. */
    readonly serverMessage?: string,
    /** The whole answer, for refusals that carry more than words (a publish's missing approvals and conflicts). */
    readonly body?: unknown,
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
  if (serverMessage === REFUSED.freshPasskey)
    return 'Confirm it is you with your passkey first, then try again.';
  if (status === 401) return 'You are signed out. Sign in again to continue.';
  if (status === 403 && serverMessage === REFUSED.revokedInvitation)
    return 'This invitation no longer works: your access to the inbox was ended. If you think this is a mistake, ask an admin.';
  if (status === 403 && serverMessage === REFUSED.cancelledInvitation)
    return 'This invitation was cancelled by an admin. Ask them for a new one if you still need access.';
  if (status === 403 && serverMessage === REFUSED.freshPasskey)
    return 'Confirm it is you with your passkey first, then try again.';
  if (status === 409 && serverMessage === REFUSED.lastPasskey)
    return 'This is your only passkey: add another one before removing it, or you could not sign in.';
  if (status === 403)
    return serverMessage === 'cross-site request'
      ? 'The request was refused because it did not come from the inbox itself. Reload the page and try again.'
      : serverMessage === 'invalid or expired invitation'
        ? 'This invitation link is not valid: it was already used or it has expired. Ask an admin for a new one.'
        : 'Only admins can do this.';
  if (status === 404) return 'That lead was not found.';
  if (status === 429 && serverMessage?.startsWith('too many leads read'))
    return `Too many leads were opened in a short time. Try again in ${Number(retryAfter) || 60} seconds.`;
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
  init: { method?: string; body?: unknown; keepalive?: boolean; background?: boolean } = {},
): Promise<T> {
  let response: Response;
  try {
    response = await fetch(`${STAFF_API_PATH}${path}`, {
      method: init.method ?? 'GET',
      credentials: 'same-origin',
      headers: {
        'X-Staff-Request': '1',
        ...(init.background ? { [BACKGROUND_HEADER]: '1' } : {}),
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
  const body = (await response.json().catch(() => undefined)) as Partial<ErrorAnswer> | undefined;
  if (!response.ok) {
    // The session's own question (/me, session.ts) and the sign-in ceremonies expect a 401; any other ends the session.
    // The content API's 401 for a passkey check older than 5 minutes keeps the session: the app asks for the passkey.
    if (
      response.status === 401 &&
      body?.error !== REFUSED.freshPasskey &&
      path !== '/me' &&
      !path.startsWith('/signin') &&
      !path.startsWith('/enrol')
    )
      onSignedOut();
    throw new ApiError(
      response.status,
      explain(response.status, body?.error, response.headers.get('Retry-After')),
      body?.error,
      body,
    );
  }
  return body as T;
}

/** The query string of a filter (and cursor), leaving out what is unset. */
export function query(filter: LeadsQuery): string {
  const params = new URLSearchParams();
  for (const [key, value] of Object.entries(filter)) if (value) params.set(key, String(value));
  const text = params.toString();
  return text ? `?${text}` : '';
}

/** Asks, and learns when the session ends from the answer. */
const withClock = async <T extends SessionClock>(asked: Promise<T>): Promise<T> => {
  const clock = await asked;
  noteSessionClock(clock, Date.now());
  return clock;
};

export const api = {
  me: () => withClock(request<Me>('/me')),
  /** When the session ends; `background`: only asking (the idle watch), else "I am still here" (Stay signed in). */
  session: (background = false) => withClock(request<SessionClock>('/session', { background })),
  /** A search goes in a POST's body (SearchRequest), never in an address; the other filters may. */
  leads: ({ q, ...filter }: LeadFilter, before?: string, { background = false } = {}) =>
    q
      ? request<LeadsPage>('/leads/search', {
          method: 'POST',
          body: { ...filter, q, before } satisfies SearchRequest,
          background,
        })
      : request<LeadsPage>(`/leads${query({ ...filter, before })}`, { background }),
  lead: (id: string, { background = false } = {}) =>
    request<LeadDetail>(`/leads/${encodeURIComponent(id)}`, { background }),
  setStatus: (id: string, status: LeadStatus) =>
    request<LeadDetail>(`/leads/${encodeURIComponent(id)}/status`, {
      method: 'POST',
      body: { status } satisfies StatusRequest,
    }),
  addNote: (id: string, text: string) =>
    request<LeadNote>(`/leads/${encodeURIComponent(id)}/notes`, {
      method: 'POST',
      body: { text } satisfies NoteRequest,
    }),
  claim: (id: string) =>
    request<LeadDetail>(`/leads/${encodeURIComponent(id)}/claim`, { method: 'POST', body: {} }),
  release: (id: string) =>
    request<LeadDetail>(`/leads/${encodeURIComponent(id)}/release`, { method: 'POST', body: {} }),
  logCall: (id: string, call: CallRequest) =>
    request<LeadDetail>(`/leads/${encodeURIComponent(id)}/calls`, { method: 'POST', body: call }),
  /** Tells the server a call link was tapped, for the audit log; never holds up the call. */
  recordCall: (id: string) => {
    void request<void>(`/leads/${encodeURIComponent(id)}/calls`, { method: 'POST', keepalive: true }).catch(
      () => undefined,
    );
  },
  audit: (before?: string) => request<AuditPage>(`/audit${query({ before })}`),
  signOut: () => request<void>('/signout', { method: 'POST' }),
  sessions: () => request<SessionsList>('/sessions'),
  endSession: (id: string) => request<void>(`/sessions/${encodeURIComponent(id)}`, { method: 'DELETE' }),
  endOtherSessions: () => request<EndedSessions>('/sessions/end-others', { method: 'POST', body: {} }),
  removePasskey: (id: string) =>
    withClock(request<Me>(`/passkeys/${encodeURIComponent(id)}`, { method: 'DELETE' })),
};
/** The CSV export's address for the list's filters but the search (never in an address): a plain download. */
export const csvHref = ({ q: _search, ...filter }: LeadFilter) =>
  `${STAFF_API_PATH}/leads.csv${query(filter)}`;
/** A lead's page in the app. */
export const leadPath = (id: string) => `/leads/${encodeURIComponent(id)}`;
