// The admissions inbox over the SQLite lead database: leads newest first by keyset pagination on (created_at, id),
// filtered through the indexes of schema 5 and searched through keyed hashes (shared/search-terms.ts); status changes
// and notes, each kept as an event with who made it and when; notes sealed like a lead's free text.
import type Database from 'better-sqlite3';
import type { InboxLead, InboxPageQuery, InboxStore, LeadNote, LeadStatus } from '../contract/inbox.ts';
import type { EventRow, StatusRow } from '../contract/rows.ts';
import {
  COMMON_TERM,
  decodeCursor,
  encodeCursor,
  instant,
  MAX_PAGE,
  pageLimit,
} from '../shared/inbox-query.ts';
import { inboxLeadOf, inboxRowOf, noteField } from '../shared/inbox-rows.ts';
import { leadId as newId } from '../shared/lead-id.ts';
import { hashTerm, queryTerms } from '../shared/search-terms.ts';
import { sealStatusChange, type Sealer } from '../shared/sealing.ts';

export interface InboxStoreParts {
  db: Database.Database;
  sealer: Sealer;
  onLeadStored: InboxStore['onLeadStored'];
}

export function createSqliteInboxStore({ db, sealer, onLeadStored }: InboxStoreParts): InboxStore {
  const statements = new Map<string, Database.Statement<unknown[], StatusRow>>();
  const selectLead = db.prepare<[string], StatusRow>('SELECT * FROM leads WHERE id = ?');
  const countTerm = db
    .prepare<[string, number], number>(
      'SELECT COUNT(*) FROM (SELECT 1 FROM lead_terms WHERE term IN (SELECT value FROM json_each(?)) LIMIT ?)',
    )
    .pluck();
  const selectEvents = db.prepare<[string], EventRow>(
    'SELECT * FROM lead_events WHERE lead_id = ? ORDER BY at, id',
  );
  const updateStatus = db.prepare('UPDATE leads SET status = ? WHERE id = ?');
  const insertEvent = db.prepare(
    `INSERT INTO lead_events (id, lead_id, at, author, kind, from_status, to_status, note_sealed)
     VALUES (@id, @leadId, @at, @author, @kind, @from, @to, @note)`,
  );

  const toRow = (row: StatusRow) => inboxRowOf(row, sealer);

  function page(query: InboxPageQuery): { rows: StatusRow[]; more: boolean } {
    const terms = queryTerms(query.q ?? '');
    if (terms === undefined) return { rows: [], more: false };
    const searched = terms.map((term) => {
      const hashes = JSON.stringify(sealer.indexKeys().map((key) => hashTerm(key, term)));
      return { hashes, common: (countTerm.get(hashes, COMMON_TERM) ?? 0) >= COMMON_TERM };
    });
    const limit = pageLimit(query.limit);
    const { sql, params } = pageStatement(query, searched, limit + 1);
    let statement = statements.get(sql);
    if (!statement) statements.set(sql, (statement = db.prepare<unknown[], StatusRow>(sql)));
    const rows = statement.all(...params);
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  function get(id: string): InboxLead | undefined {
    const row = selectLead.get(id);
    return row && inboxLeadOf(row, selectEvents.all(id), sealer);
  }

  // Staff writes run here, on the store's own connection, each in an IMMEDIATE transaction: they are rare and small,
  // and the writer thread's queue is kept for visitors' leads, whose answer waits on it.
  const changeStatus = db.transaction((id: string, status: LeadStatus, author: string): boolean => {
    const row = selectLead.get(id);
    if (!row) return false;
    if (row.status === status) return true;
    updateStatus.run(status, id);
    const eventId = newId();
    // The change is sealed (its from and to), like a note: only that one happened, when and by whom, is in clear.
    insertEvent.run({
      id: eventId,
      leadId: id,
      at: new Date().toISOString(),
      author,
      kind: 'status',
      from: null,
      to: null,
      note: sealStatusChange(sealer, id, eventId, { from: row.status, to: status }),
    });
    return true;
  });

  const insertNote = db.transaction((id: string, text: string, author: string): LeadNote | undefined => {
    if (!selectLead.get(id)) return undefined;
    const note = { id: newId(), author, createdAt: new Date().toISOString(), text };
    insertEvent.run({
      id: note.id,
      leadId: id,
      at: note.createdAt,
      author,
      kind: 'note',
      from: null,
      to: null,
      note: sealer.seal(text, id, noteField(note.id)),
    });
    return note;
  });

  return {
    async list(query) {
      const { rows, more } = page(query);
      const last = rows.at(-1);
      return { rows: rows.map(toRow), next: more && last ? encodeCursor(last) : null };
    },
    async *all(filter) {
      let before: string | undefined;
      do {
        const { rows, more } = page({ ...filter, before, limit: MAX_PAGE });
        for (const row of rows) yield toRow(row);
        const last = rows.at(-1);
        before = more && last ? encodeCursor(last) : undefined;
      } while (before !== undefined);
    },
    get: async (id) => get(id),
    async setStatus(id, status, author) {
      return changeStatus.immediate(id, status, author) ? get(id) : undefined;
    },
    addNote: async (id, text, author) => insertNote.immediate(id, text, author),
    onLeadStored,
  };
}

/** A search term as the list's statement takes it: its keyed hashes (a JSON array), and whether many leads share it. */
export interface SearchedTerm {
  hashes: string;
  common: boolean;
}

/**
 * The statement of one page of the list and its parameters: one statement per shape of filter (at most 2^6 of them),
 * the terms of a search as one JSON array each, `rows` rows at most. Exported so that its query plans are tested.
 */
export function pageStatement(
  query: InboxPageQuery,
  terms: readonly SearchedTerm[],
  rows: number,
): { sql: string; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (condition: string, ...values: unknown[]) => {
    where.push(condition);
    params.push(...values);
  };
  if (query.status !== undefined) add('status = ?', query.status);
  if (query.formId !== undefined) add('form_id = ?', query.formId);
  if (query.from !== undefined) add('created_at >= ?', instant(query.from, 'from'));
  if (query.to !== undefined) add('created_at < ?', instant(query.to, 'to'));
  // A rare term picks its few leads first; a common one (a three-letter prefix half the leads share) is checked lead by
  // lead, newest first, until the page is full: either way a page costs milliseconds, not a pass over every match.
  for (const { hashes, common } of terms)
    add(
      common
        ? 'EXISTS (SELECT 1 FROM lead_terms WHERE lead_id = leads.id AND term IN (SELECT value FROM json_each(?)))'
        : 'id IN (SELECT lead_id FROM lead_terms WHERE term IN (SELECT value FROM json_each(?)))',
      hashes,
    );
  if (query.before !== undefined) add('(created_at, id) < (?, ?)', ...decodeCursor(query.before));
  const sql = `SELECT * FROM leads ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY created_at DESC, id DESC LIMIT ?`;
  return { sql, params: [...params, rows] };
}
