// Leads as the inbox shows them, from the rows either store reads: values and notes opened.
import type { InboxLead, InboxRow, LeadNote, StatusChange } from '../contract/inbox.ts';
import type { EventRow, StatusRow } from '../contract/rows.ts';
import { openSource, openStatusChange, type Sealer } from './sealing.ts';

export const noteField = (noteId: string) => `note:${noteId}`;

export const inboxRowOf = (row: StatusRow, sealer: Sealer): InboxRow => ({
  id: row.id,
  formId: row.form_id,
  createdAt: row.created_at,
  status: row.status,
  fields: sealer.openAll(row),
});

/** The lead as its page shows it, from its row and its events (oldest first), notes opened. */
export function inboxLeadOf(row: StatusRow, events: readonly EventRow[], sealer: Sealer): InboxLead {
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
  return { ...inboxRowOf(row, sealer), source: openSource(sealer, row), notes, history };
}
