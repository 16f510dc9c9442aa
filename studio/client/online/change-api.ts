// The change-set calls the online editor makes beside its documents (contracts/content-api.ts): list, create, read,
// the misspellings its publish would refuse, submit. Same origin, the staff session's cookie; a state-changing request carries the staff area's cross-site header.
import type {
  ChangeView,
  ClaimKind,
  CreatedChange,
  SetSpelling,
  Submitted,
} from '../../../contracts/content-api.ts';

export const CHANGES = '/staff/api/content/changes';
const STAFF_HEADERS = { 'X-Staff-Request': '1', 'content-type': 'application/json' };

export type ChangeSummary = {
  id: string;
  title: string;
  author: string;
  state: string;
  updatedAt: string | null;
};

/** A refusal in the API's words ({ error }), or the status when it gave none. */
export class ChangeApiError extends Error {
  constructor(
    readonly status: number,
    message: string,
  ) {
    super(message);
  }
}

async function answer<T>(response: Response): Promise<T> {
  if (response.ok) return (await response.json()) as T;
  const body = (await response.json().catch(() => ({}))) as { error?: string };
  throw new ChangeApiError(response.status, body.error ?? `the staff area answered ${response.status}`);
}

export const changeApi = {
  list: async () => (await answer<{ changes: ChangeSummary[] }>(await fetch(CHANGES))).changes,
  create: async (title: string) =>
    answer<CreatedChange>(
      await fetch(CHANGES, { method: 'POST', headers: STAFF_HEADERS, body: JSON.stringify({ title }) }),
    ),
  show: async (id: string) => answer<ChangeView>(await fetch(`${CHANGES}/${encodeURIComponent(id)}`)),
  spelling: async (id: string) =>
    (await answer<SetSpelling>(await fetch(`${CHANGES}/${encodeURIComponent(id)}/spelling`))).misspellings,
  submit: async (id: string) =>
    answer<Submitted>(
      await fetch(`${CHANGES}/${encodeURIComponent(id)}/submit`, { method: 'POST', headers: STAFF_HEADERS }),
    ),
};

/** Who must approve each claim kind, in the words staff read. */
export const REQUIRES_WORDS: Record<ClaimKind, string> = {
  clinical:
    'a clinical reviewer (a reviewer with a clinical credential), for the medical claims: durations, medications, symptoms, dangers, outcomes',
  contact: 'an admin, for the phone numbers, e-mail addresses and emergency links',
  other: 'any reviewer, for the other changes',
};
