// The admissions inbox over the SQLite lead database: leads newest first by keyset pagination on (created_at, id),
// filtered through the indexes of schema 5 and searched through keyed hashes (shared/search-terms.ts); status changes
// and notes, each kept as an event with who made it and when; notes sealed like a lead's free text.
import type Database from 'better-sqlite3';
import { OUTCOME_STATUS } from '../../../contracts/staff-api.ts';
import {
  RELATED_DAYS,
  type InboxLead,
  type InboxPageQuery,
  type InboxStore,
  type LeadNote,
  type LeadStatus,
  type RelatedLead,
} from '../contract/inbox.ts';
import type { CallRow, EventRow, StatusRow } from '../contract/rows.ts';
import {
  callEffect,
  contactTerms,
  daysBefore,
  decodeDueCursor,
  encodeDueCursor,
  overdueOf,
  statusEffect,
} from '../shared/desk.ts';
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
import { sqliteDeskMerge } from './desk-merge.ts';
import type { LeadWriter } from './single-writer.ts';

export interface InboxStoreParts {
  db: Database.Database;
  sealer: Sealer;
  onLeadStored: InboxStore['onLeadStored'];
  onLeadChanged: InboxStore['onLeadChanged'];
  /** Tells this process's listeners that a lead changed (SQLite has one server process). */
  changed(id: string): void;
  /** The lead writer, for the escalation sweep's writes (write-ops.ts says why they go there). */
  writer: Pick<LeadWriter, 'run'>;
}

export function createSqliteInboxStore({
  db,
  sealer,
  onLeadStored,
  onLeadChanged,
  changed,
  writer,
}: InboxStoreParts): InboxStore {
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
  const updateStatus = db.prepare(
    `UPDATE leads SET status = @status,
       due_at = CASE WHEN @settled THEN NULL ELSE coalesce(due_at, @now) END,
       first_contact_at = CASE WHEN @reached THEN coalesce(first_contact_at, @now) ELSE first_contact_at END
     WHERE id = @id`,
  );
  const selectCalls = db.prepare<[string], CallRow>(
    'SELECT * FROM lead_calls WHERE lead_id = ? ORDER BY at, id',
  );
  const insertCall = db.prepare(
    'INSERT INTO lead_calls (id, lead_id, at, author, outcome, callback_at) VALUES (?, ?, ?, ?, ?, ?)',
  );
  const insertEvent = db.prepare(
    `INSERT INTO lead_events (id, lead_id, at, author, kind, from_status, to_status, note_sealed)
     VALUES (@id, @leadId, @at, @author, @kind, @from, @to, @note)`,
  );

  const toRow = (row: StatusRow) => inboxRowOf(row, sealer);
  const { mergedFrom, ...merging } = sqliteDeskMerge(db, sealer, changed);

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
    return row && inboxLeadOf(row, selectEvents.all(id), sealer, selectCalls.all(id), mergedFrom(id));
  }

  // Staff writes run here, on the store's own connection, each in an IMMEDIATE transaction: they are rare and small,
  // and the writer thread's queue is kept for visitors' leads, whose answer waits on it.
  const changeStatus = db.transaction((id: string, status: LeadStatus, author: string): boolean => {
    const row = selectLead.get(id);
    if (!row) return false;
    if (row.status === status) return true;
    const { settled, reached } = statusEffect(status);
    updateStatus.run({
      id,
      status,
      settled: settled ? 1 : 0,
      reached: reached ? 1 : 0,
      now: new Date().toISOString(),
    });
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
      const cursor = query.order === 'due' ? encodeDueCursor : encodeCursor;
      return { rows: rows.map(toRow), next: more && last ? cursor(last) : null };
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
      const found = changeStatus.immediate(id, status, author);
      if (found) changed(id);
      return found ? get(id) : undefined;
    },
    async addNote(id, text, author) {
      const note = insertNote.immediate(id, text, author);
      if (note) changed(id);
      return note;
    },
    onLeadStored,
    onLeadChanged,
    ...deskOf(db, sealer, { changeStatus, insertCall, changed, get, writer }),
    ...merging,
  };
}

/** Ownership, calls and related leads: the desk's part of the inbox (shared/desk.ts says its rules). */
function deskOf(
  db: Database.Database,
  sealer: Sealer,
  {
    changeStatus,
    insertCall,
    changed,
    get,
    writer,
  }: {
    changeStatus: Database.Transaction<(id: string, status: LeadStatus, author: string) => boolean>;
    insertCall: Database.Statement;
    changed: (id: string) => void;
    get: (id: string) => InboxLead | undefined;
    writer: InboxStoreParts['writer'];
  },
): Pick<
  InboxStore,
  'claim' | 'release' | 'assign' | 'logCall' | 'related' | 'takeEscalations' | 'escalationFailed'
> {
  const ownerOf = db.prepare<[string], { owner: string | null }>('SELECT owner FROM leads WHERE id = ?');
  const setOwner = db.prepare('UPDATE leads SET owner = ?, owner_auto = 0 WHERE id = ?');
  const selectLead = db.prepare<[string], StatusRow>('SELECT * FROM leads WHERE id = ?');
  const ownTerms = db.prepare<[string], { term: string }>('SELECT term FROM lead_terms WHERE lead_id = ?');
  const sameTerms = db.prepare<[string, string, string], RelatedLead>(
    `SELECT DISTINCT leads.id, leads.created_at AS createdAt, leads.status FROM lead_terms
     JOIN leads ON leads.id = lead_terms.lead_id
     WHERE lead_terms.term IN (SELECT value FROM json_each(?)) AND leads.id != ?
       AND (leads.status IN ('new', 'not-reached') OR leads.due_at IS NOT NULL OR leads.created_at >= ?)
     ORDER BY leads.created_at DESC, leads.id DESC LIMIT 10`,
  );
  const owned = (id: string, write: (owner: string | null) => string) =>
    db.transaction(() => {
      const row = ownerOf.get(id);
      return row ? write(row.owner) : 'missing';
    });
  const call = db.transaction(
    (id: string, author: string, outcome: keyof typeof OUTCOME_STATUS, callbackAt: string | undefined) => {
      if (!selectLead.get(id)) return false;
      insertCall.run(newId(), id, new Date().toISOString(), author, outcome, callbackAt ?? null);
      // A call by the owner round robin chose is their own act now: escalated no more than a claimed lead.
      db.prepare(
        'UPDATE leads SET attempts = attempts + 1, owner_auto = CASE WHEN owner = ? THEN 0 ELSE owner_auto END WHERE id = ?',
      ).run(author, id);
      changeStatus(id, OUTCOME_STATUS[outcome], author);
      // A callback is a promise of its own: due at the time asked for, whatever the status did.
      const { due, reached } = callEffect(outcome, callbackAt);
      if (due) db.prepare('UPDATE leads SET due_at = ? WHERE id = ?').run(due.to, id);
      if (reached)
        db.prepare('UPDATE leads SET first_contact_at = coalesce(first_contact_at, ?) WHERE id = ?').run(
          new Date().toISOString(),
          id,
        );
      return true;
    },
  );
  return {
    async claim(id, email) {
      const outcome = owned(id, (owner) => {
        if (owner !== null && owner !== email) return 'taken';
        setOwner.run(email, id);
        return 'claimed';
      }).immediate() as 'claimed' | 'taken' | 'missing';
      if (outcome === 'claimed') changed(id);
      return outcome;
    },
    async release(id, email, anyOwner) {
      const outcome = owned(id, (owner) => {
        if (owner !== null && owner !== email && !anyOwner) return 'not-owner';
        setOwner.run(null, id);
        return 'released';
      }).immediate() as 'released' | 'not-owner' | 'missing';
      if (outcome === 'released') changed(id);
      return outcome;
    },
    async assign(id, owner) {
      const found = setOwner.run(owner, id).changes === 1;
      if (found) changed(id);
      return found;
    },
    async logCall(id, author, outcome, callbackAt) {
      if (!call.immediate(id, author, outcome, callbackAt)) return undefined;
      changed(id);
      return get(id);
    },
    async takeEscalations(now, repeatMs, limit) {
      const at = new Date(now).toISOString();
      const repeatedBefore = new Date(now - repeatMs).toISOString();
      const rows = await writer.run({ kind: 'take-escalations', at, repeatedBefore, limit });
      return rows.map(overdueOf).sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    },
    async escalationFailed(id) {
      await writer.run({ kind: 'escalation-failed', leadId: id });
    },
    async related(ids) {
      const since = daysBefore(Date.now(), RELATED_DAYS);
      const found = new Map<string, RelatedLead[]>();
      for (const id of ids) {
        const row = selectLead.get(id);
        if (!row) continue;
        const own = new Set(ownTerms.all(id).map(({ term }) => term));
        const terms = contactTerms(sealer.openAll(row), sealer).filter((term) => own.has(term));
        found.set(id, terms.length === 0 ? [] : sameTerms.all(JSON.stringify(terms), id, since));
      }
      return found;
    },
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
  if (query.statuses !== undefined && query.statuses.length > 0)
    add(`status IN (${query.statuses.map(() => '?').join(', ')})`, ...query.statuses);
  if (query.owner === null) add('owner IS NULL');
  else if (query.owner !== undefined) add('owner = ?', query.owner);
  const due = query.order === 'due';
  // The queue: only what is due, by the partial index on due_at.
  if (due) add('due_at IS NOT NULL');
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
  if (query.before !== undefined)
    if (due) add('(due_at, id) > (?, ?)', ...decodeDueCursor(query.before));
    else add('(created_at, id) < (?, ?)', ...decodeCursor(query.before));
  const sql = `SELECT * FROM leads ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
      ORDER BY ${due ? 'due_at, id' : 'created_at DESC, id DESC'} LIMIT ?`;
  return { sql, params: [...params, rows] };
}
