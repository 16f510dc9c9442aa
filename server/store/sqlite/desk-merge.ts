// The desk's second part over the SQLite lead database: merging a lead into another on request, round-robin
// assignment among the members on shift, and the rows of the speed-to-lead report. Each write is one IMMEDIATE
// transaction on the store's own connection, as the rest of the desk's (inbox-store.ts).
import type Database from 'better-sqlite3';
import type { InboxStore, LeadStatus, PromiseRow } from '../contract/inbox.ts';
import { leadId as newId } from '../shared/lead-id.ts';
import { sealStatusChange, type Sealer } from '../shared/sealing.ts';

interface MergeRow {
  id: string;
  status: LeadStatus;
  merged_into: string | null;
}

export function sqliteDeskMerge(
  db: Database.Database,
  sealer: Sealer,
  changed: (id: string) => void,
): Pick<InboxStore, 'merge' | 'assignNext' | 'promises'> & { mergedFrom: (id: string) => string[] } {
  const leadOf = db.prepare<[string], MergeRow>('SELECT id, status, merged_into FROM leads WHERE id = ?');
  const close = db.prepare("UPDATE leads SET status = 'closed', due_at = NULL, merged_into = ? WHERE id = ?");
  const insertEvent = db.prepare(
    `INSERT INTO lead_events (id, lead_id, at, author, kind, from_status, to_status, note_sealed)
     VALUES (?, ?, ?, ?, 'status', NULL, NULL, ?)`,
  );
  const merged = db
    .prepare<[string], string>('SELECT id FROM leads WHERE merged_into = ? ORDER BY created_at, id')
    .pluck();
  const merge = db.transaction((keep: string, from: string, author: string) => {
    if (keep === from) return 'same' as const;
    const kept = leadOf.get(keep);
    const other = leadOf.get(from);
    if (!kept || !other) return 'missing' as const;
    if (kept.merged_into !== null || other.merged_into !== null) return 'merged-already' as const;
    close.run(keep, from);
    if (other.status !== 'closed') {
      const eventId = newId();
      const change = sealStatusChange(sealer, from, eventId, { from: other.status, to: 'closed' });
      insertEvent.run(eventId, from, new Date().toISOString(), author, change);
    }
    return 'merged' as const;
  });

  const ownerOf = db.prepare<[string], { owner: string | null }>('SELECT owner FROM leads WHERE id = ?');
  // The member on shift whose last round-robin lead is oldest (turn 0: never had one), by e-mail among equals.
  const nextOnShift = db.prepare<[], { id: string; email: string }>(
    `SELECT id, email FROM staff WHERE on_shift = 1 AND revoked_at IS NULL
       AND EXISTS (SELECT 1 FROM json_each(staff.roles) WHERE value = 'admissions')
     ORDER BY turn, email LIMIT 1`,
  );
  const takeTurn = db.prepare('UPDATE staff SET turn = (SELECT max(turn) FROM staff) + 1 WHERE id = ?');
  const setOwner = db.prepare('UPDATE leads SET owner = ?, owner_auto = 1 WHERE id = ? AND owner IS NULL');
  const assignNext = db.transaction((id: string): string | null => {
    const lead = ownerOf.get(id);
    if (!lead || lead.owner !== null) return null;
    const member = nextOnShift.get();
    if (!member) return null;
    takeTurn.run(member.id);
    setOwner.run(member.email, id);
    return member.email;
  });

  const promiseRows = db.prepare<[string, string], PromiseRow>(
    `SELECT form_id AS formId, created_at AS createdAt, coalesce(promised_at, created_at) AS promisedAt,
       first_contact_at AS firstContactAt
     FROM leads WHERE created_at >= ? AND created_at < ? AND merged_into IS NULL ORDER BY created_at`,
  );

  return {
    async merge(keep, from, author) {
      const outcome = merge.immediate(keep, from, author);
      if (outcome === 'merged') {
        changed(from);
        changed(keep);
      }
      return outcome;
    },
    async assignNext(id) {
      const owner = assignNext.immediate(id);
      if (owner !== null) changed(id);
      return owner;
    },
    promises: async (from, to) => promiseRows.all(from, to),
    mergedFrom: (id) => merged.all(id),
  };
}
