// Leads as the inbox shows them, from the rows either store reads: values and notes opened.
import { isCallOutcome } from '../../../contracts/staff-api.ts';
import type { InboxLead, InboxRow, LeadCall, LeadNote, StatusChange } from '../contract/inbox.ts';
import type { CallRow, EventRow, StatusRow } from '../contract/rows.ts';
import { openSource, openStatusChange, type Sealer } from './sealing.ts';

export const noteField = (noteId: string) => `note:${noteId}`;

export const inboxRowOf = (row: StatusRow, sealer: Sealer): InboxRow => ({
  id: row.id,
  formId: row.form_id,
  createdAt: row.created_at,
  status: row.status,
  fields: sealer.openAll(row),
  dueAt: row.due_at,
  // Stored before the desk's schema step and not yet migrated cannot happen (the step fills it); created_at is its value.
  promisedAt: row.promised_at ?? row.created_at,
  owner: row.owner,
  firstContactAt: row.first_contact_at,
  attempts: row.attempts,
  mergedInto: row.merged_into ?? null,
});

/** A lead's calls as its page lists them (an outcome this version does not know is left out). */
export const callsOf = (rows: readonly CallRow[]): LeadCall[] =>
  rows.flatMap((row) =>
    isCallOutcome(row.outcome)
      ? [{ at: row.at, author: row.author, outcome: row.outcome, callbackAt: row.callback_at }]
      : [],
  );

/** The lead as its page shows it, from its row and its events (oldest first), notes opened. */
export function inboxLeadOf(
  row: StatusRow,
  events: readonly EventRow[],
  sealer: Sealer,
  calls: readonly CallRow[] = [],
  mergedFrom: readonly string[] = [],
): InboxLead {
  const notes: LeadNote[] = [];
  const history: StatusChange[] = [];
  for (const event of events) {
    if (event.kind === 'note' && event.note_sealed !== null)
      notes.push({
        id: event.id,
        author: event.author,
        createdAt: event.at,
        text: sealer.open(event.note_sealed, row.id, noteField(event.id)),
      });
    else if (event.kind === 'status' && event.note_sealed !== null)
      history.push({
        author: event.author,
        at: event.at,
        ...openStatusChange(sealer, row.id, event.id, event.note_sealed),
      });
    // Written in clear by an older version, until the store seals it at its next start.
    else if (event.kind === 'status' && event.from_status && event.to_status)
      history.push({ author: event.author, at: event.at, from: event.from_status, to: event.to_status });
  }
  return {
    ...inboxRowOf(row, sealer),
    source: openSource(sealer, row),
    notes,
    history,
    calls: callsOf(calls),
    mergedFrom: [...mergedFrom],
  };
}
