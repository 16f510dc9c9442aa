// The staff API (/staff/api, answered by server/staff/, called by the inbox app in inbox/): every request body and
// answer it exchanges, and the small pure values both sides need (the lead statuses, their labels and guard). One
// module for both sides, so a change on one side fails the type check of the other. Pure TypeScript: no Node or
// browser import, only what JSON can carry (times as ISO 8601 strings, UTC).

/** Where the API is served, below the staff area's own prefix. */
export const STAFF_API_PATH = '/staff/api';

/** A lead's place in admissions, in the order staff usually move it. */
export const LEAD_STATUSES = ['new', 'contacted', 'admitted', 'referred', 'not-reached', 'closed'] as const;
export type LeadStatus = (typeof LEAD_STATUSES)[number];

export const STATUS_LABELS: Readonly<Record<LeadStatus, string>> = {
  new: 'New',
  contacted: 'Contacted',
  admitted: 'Admitted',
  referred: 'Referred elsewhere',
  'not-reached': 'Not reached',
  closed: 'Closed',
};

export const isLeadStatus = (value: unknown): value is LeadStatus =>
  typeof value === 'string' && (LEAD_STATUSES as readonly string[]).includes(value);

/** What a call came to. The lead's status follows it (OUTCOME_STATUS); `callback` also sets a new due time. */
export const CALL_OUTCOMES = [
  'reached',
  'no-answer',
  'voicemail',
  'wrong-number',
  'not-a-fit',
  'callback',
] as const;
export type CallOutcome = (typeof CALL_OUTCOMES)[number];

export const OUTCOME_LABELS: Readonly<Record<CallOutcome, string>> = {
  reached: 'Reached',
  'no-answer': 'No answer',
  voicemail: 'Left a voicemail',
  'wrong-number': 'Wrong number',
  'not-a-fit': 'Not a fit',
  callback: 'Asked to call back',
};

/** The status a call's outcome gives the lead. */
export const OUTCOME_STATUS: Readonly<Record<CallOutcome, LeadStatus>> = {
  reached: 'contacted',
  'no-answer': 'not-reached',
  voicemail: 'not-reached',
  'wrong-number': 'closed',
  'not-a-fit': 'closed',
  callback: 'contacted',
};

export const isCallOutcome = (value: unknown): value is CallOutcome =>
  typeof value === 'string' && (CALL_OUTCOMES as readonly string[]).includes(value);

/**
 * Statuses after which nothing is due: the promise was kept (contacted) or the lead is settled. Setting one of the
 * others (new, not reached) makes the lead due again, at once if nothing was due.
 */
export const SETTLED_STATUSES: readonly LeadStatus[] = ['contacted', 'admitted', 'referred', 'closed'];

/** Any answer other than 2xx (but a 204): what went wrong, in the server's words. */
export interface ErrorAnswer {
  error: string;
}

// Passkeys and the session.

/** POST /enrol/options: the invitation's token (from the link's fragment). */
export interface EnrolOptionsRequest {
  token: string;
}
/** POST /enrol/verify. `response`: the credential as @simplewebauthn/browser gives it (checked by the server). */
export interface EnrolVerifyRequest {
  token: string;
  response: unknown;
}
/**
 * POST /signin/verify, /passkeys/verify and /reauth/verify: the browser's credential (their /options take `{}`).
 * /reauth/verify answers 204: this session's passkey check is fresh.
 */
export interface CredentialRequest {
  response: unknown;
}
/**
 * What a staff member may do: `admissions` works leads; `editor` edits change sets of the site's content, `reviewer`
 * approves them (a clinical change only with a credential), `publisher` publishes approved ones (issue #28); `admin`
 * also manages staff, exports, reads the audit log and approves contact changes. A member holds a set of them;
 * `admin` below is `roles` holding it. Appended in this order: stored lists are read in it (staff-records.ts).
 */
export const STAFF_ROLES = ['admissions', 'editor', 'reviewer', 'publisher', 'admin'] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** The roles of an invitation that names none. */
export const DEFAULT_ROLES: readonly StaffRole[] = ['admissions'];

export const isStaffRole = (value: unknown): value is StaffRole =>
  typeof value === 'string' && (STAFF_ROLES as readonly string[]).includes(value);

/** The roles that open the leads (the inbox's list, a lead, the desk, the event stream). */
export const LEAD_ROLES: readonly StaffRole[] = ['admissions', 'admin'];
/** The roles that open the content API (/staff/api/content/): change sets, review, publish. */
export const CONTENT_ROLES: readonly StaffRole[] = ['editor', 'reviewer', 'publisher', 'admin'];
export const holdsAny = (roles: readonly StaffRole[], wanted: readonly StaffRole[]): boolean =>
  roles.some((role) => wanted.includes(role));

/** The answer of /enrol/verify and /signin/verify: who is now signed in. */
export interface SignedInMember {
  email: string;
  admin: boolean;
  roles: StaffRole[];
}
/**
 * Requests the inbox makes on its own (a list refreshed after a new lead), not at its member's click, key press or
 * navigation, carry this header with the value `1`: they need a live session but never extend it, and are not audited
 * as the member's own reads. The event stream (GET /events) never extends it either.
 */
export const BACKGROUND_HEADER = 'X-Staff-Background';

/**
 * When the session ends, by the server's clock. GET /session answers it (with the header above: without moving it;
 * without: as activity, "I am still here").
 */
export interface SessionClock {
  /** Its member's last own activity plus the idle limit (STAFF_IDLE_MINUTES), or expiresAt when sooner. */
  idleExpiresAt: string;
  /** Its sign-in plus the absolute limit (STAFF_SESSION_HOURS): the end whatever its member does. */
  expiresAt: string;
  /** The idle limit. */
  idleSeconds: number;
  /** The server's time when it answered, so the inbox can count in its own clock. */
  serverTime: string;
}

export interface PasskeyInfo {
  id: string;
  /** What it was added from, in words ("Chrome on Android"); null when not known. */
  name: string | null;
  createdAt: string;
  lastUsedAt: string | null;
}

/** GET /me, and the answer of POST /passkeys/verify (201) and DELETE /passkeys/:id: the member, passkeys, session. */
export interface Me extends SignedInMember, SessionClock {
  passkeys: PasskeyInfo[];
}

/** One of the member's signed-in sessions. `id` is a handle for ending it, never the session's secret. */
export interface SessionInfo {
  id: string;
  createdAt: string;
  lastActiveAt: string;
  /** What it was signed in from, in words ("Safari on iPhone"); null when not known. */
  device: string | null;
  /** The session of this request (this device). */
  current: boolean;
}
/** GET /sessions: the member's live sessions, newest first. DELETE /sessions/:id ends one of the others (204). */
export interface SessionsList {
  sessions: SessionInfo[];
}
/** The answer of POST /sessions/end-others: how many sessions were ended. */
export interface EndedSessions {
  ended: number;
}

/**
 * The server's words (an ErrorAnswer's `error`) for the refusals the inbox explains in its own: an invitation an admin
 * cancelled, or one whose member was revoked (403); adding or removing a passkey without a user-verified passkey check
 * of this session in the last 5 minutes (403: the inbox asks for the passkey, POST /reauth/options and /reauth/verify,
 * and tries again); removing the last passkey (409).
 */
export const REFUSED = {
  cancelledInvitation: 'invitation cancelled',
  revokedInvitation: 'invitation cancelled: access revoked',
  freshPasskey: 'confirm with your passkey first',
  lastPasskey: 'your only passkey cannot be removed',
} as const;

// Leads.

/**
 * The filters of the list and the export: every part optional, all parts together. `from` and `to` are ISO 8601
 * instants (`from` inclusive, `to` exclusive); `q` a name, a full phone number or its last 4 digits, only ever in the
 * body of POST /leads/search: a `q` in the address of any staff API request is refused (400), and the export
 * (GET /leads.csv) takes the other filters, never a search.
 */
export interface LeadFilter {
  /** One status, or several separated by commas (`new,not-reached`). */
  status?: LeadStatus | string;
  /** `needs-action`: only leads with something due, soonest due first (GET /leads only); `all` (default): newest first. */
  view?: 'all' | 'needs-action';
  /** `mine`: the leads the member claimed; `unassigned`: the leads no one has. */
  owner?: 'mine' | 'unassigned';
  form?: string;
  from?: string;
  to?: string;
  q?: string;
}
/** GET /leads: a filter, the previous page's `next` as `before`, and `limit` (1 to 200, 50 when unset). */
export interface LeadsQuery extends Omit<LeadFilter, 'q'> {
  before?: string;
  limit?: number;
}
/** POST /leads/search: the same as GET /leads, with the search term, as a JSON body; answered with a `LeadsPage`. */
export interface SearchRequest extends LeadFilter {
  before?: string;
  limit?: number;
}

/** What every view of a lead shows of it: who wrote, when, on which form, and how to call back. */
export interface LeadSummary {
  id: string;
  createdAt: string;
  formId: string;
  formName: string;
  name: string | null;
  /** The phone number as the visitor typed it, and its tap-to-call href (null when it is not a US number). */
  phone: string | null;
  tel: string | null;
}

/** Where a lead stands against the site's promise and who works it: on every list item and lead page. */
export interface LeadDesk {
  /** When the lead is due: the form's promise (arrival + its promiseMinutes) or the callback asked for; ISO 8601. */
  dueAt: string;
  /** True while something is due (a promise or a callback not yet kept): the "needs action" queue holds these. */
  due: boolean;
  /** The e-mail of the member who said "I'm calling", or null. */
  owner: string | null;
  /** Calls logged so far. */
  attempts: number;
  /** Ids of other leads of the same person (the same phone number or e-mail), newest first. */
  related: string[];
  /** The same leads, with when they came and where they stand: "also wrote 35 min ago (contacted)". */
  relatedLeads: { id: string; createdAt: string; status: LeadStatus }[];
}

/** A lead as the list shows it. */
export interface ListedLead extends LeadSummary, LeadDesk {
  /** The label of the lead's urgency choice, or null when its form asks none. */
  urgency: string | null;
  status: LeadStatus;
  ageSeconds: number;
}
/** GET /leads and POST /leads/search: newest first, and the cursor of the next page or null. */
export interface LeadsPage {
  leads: ListedLead[];
  next: string | null;
}

export interface LeadNote {
  id: string;
  /** The staff member's e-mail. */
  author: string;
  createdAt: string;
  text: string;
}

export interface StatusChange {
  author: string;
  at: string;
  from: LeadStatus;
  to: LeadStatus;
}

/** GET /leads/:id, and the answer of POST /leads/:id/status: a lead as its own page shows it. */
export interface LeadDetail extends LeadSummary, LeadDesk {
  /** Site path of the page the form was sent from. */
  source: string;
  status: LeadStatus;
  /** Every field under its form's label, in the form's order; fields the form no longer has after. */
  fields: { name: string; label: string; value: string }[];
  /** Oldest first. */
  notes: LeadNote[];
  /** Oldest first. */
  history: StatusChange[];
  /** Oldest first. */
  calls: LeadCall[];
  /** The lead this one was merged into (it is closed, and kept), or null. */
  mergedInto: string | null;
  /** The leads merged into this one, oldest first: their notes and calls stay on their own pages. */
  mergedFrom: string[];
}

/** A call as the lead page lists it. */
export interface LeadCall {
  at: string;
  author: string;
  outcome: CallOutcome;
  /** The time asked for, with a `callback`. */
  callbackAt: string | null;
}

/** POST /leads/:id/calls: a call made and what it came to; answered with the `LeadDetail`. */
export interface CallRequest {
  outcome: CallOutcome;
  /** ISO 8601, in the future: required with `callback`, refused otherwise. */
  callbackAt?: string;
}

/** POST /leads/:id/assign (admins, or the owner handing it on): the member's e-mail, or null to leave it unowned. */
export interface AssignRequest {
  owner: string | null;
}

/** POST /leads/:id/status. */
export interface StatusRequest {
  status: LeadStatus;
}
/** POST /leads/:id/notes (1 to 5000 characters); answered 201 with the `LeadNote`. POST /leads/:id/calls: 204. */
export interface NoteRequest {
  text: string;
}

/** GET /events: the data of each server-sent `lead` event, as a lead is stored, and of each `change` event. */
export interface LeadStoredEvent {
  id: string;
}

// The audit log (admins only).

/** One row of the audit log as the API shows it (the store's row without its hash chain). */
export interface AuditLogEntry {
  seq: number;
  at: string;
  actor: string;
  action: string;
  leadId: string | null;
  detail: string | null;
}
/** GET /audit?before=<seq>: newest first, and the `before` of the next page or null. */
export interface AuditPage {
  rows: AuditLogEntry[];
  next: number | null;
}
