// The admissions inbox over the PostgreSQL lead database: the SQLite inbox's queries (sqlite/inbox-store.ts) in PostgreSQL's
// words, with the same cursors, search through keyed hashes, and row shapes, so both stores answer alike.
import type pg from 'pg';
import { OUTCOME_STATUS } from '../../../contracts/staff-api.ts';
import {
  RELATED_DAYS,
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
  type OverdueRow,
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
import { transaction, type Queryable } from './pg-schema.ts';
import { postgresDeskMerge } from './pg-desk-merge.ts';

export interface PostgresInboxParts {
  pool: pg.Pool;
  sealer: Sealer;
  onLeadStored: InboxStore['onLeadStored'];
  onLeadChanged: InboxStore['onLeadChanged'];
  /** After a change's commit: tells this instance's listeners, and every other instance by NOTIFY. */
  changed(id: string): Promise<void>;
}

export function createPostgresInboxStore({
  pool,
  sealer,
  onLeadStored,
  onLeadChanged,
  changed,
}: PostgresInboxParts): InboxStore {
  const { mergedFrom, ...merging } = postgresDeskMerge(pool, sealer, changed);
  async function page(query: InboxPageQuery): Promise<{ rows: StatusRow[]; more: boolean }> {
    const where: string[] = [];
    const params: unknown[] = [];
    // Each condition names its values $?, numbered here in order.
    const add = (condition: string, ...values: unknown[]) => {
      where.push(condition.replace(/\$\?/g, () => `$${params.push(values.shift())}`));
    };
    if (query.status !== undefined) add('status = $?', query.status);
    if (query.statuses !== undefined && query.statuses.length > 0)
      add('status = ANY($?::text[])', [...query.statuses]);
    if (query.owner === null) add('owner IS NULL');
    else if (query.owner !== undefined) add('owner = $?', query.owner);
    const due = query.order === 'due';
    if (due) add('due_at IS NOT NULL');
    if (query.formId !== undefined) add('form_id = $?', query.formId);
    if (query.from !== undefined) add('created_at >= $?', instant(query.from, 'from'));
    if (query.to !== undefined) add('created_at < $?', instant(query.to, 'to'));
    const terms = queryTerms(query.q ?? '');
    if (terms === undefined) return { rows: [], more: false };
    for (const term of terms) {
      const hashes = sealer.indexKeys().map((key) => hashTerm(key, term));
      const { rows } = await pool.query<{ count: number }>(
        'SELECT count(*)::int AS count FROM (SELECT 1 FROM lead_terms WHERE term = ANY($1::text[]) LIMIT $2) AS t',
        [hashes, COMMON_TERM],
      );
      // A rare term picks its few leads first; a common one is checked lead by lead, newest first (sqlite/inbox-store.ts).
      add(
        (rows[0]?.count ?? 0) < COMMON_TERM
          ? 'id IN (SELECT lead_id FROM lead_terms WHERE term = ANY($?::text[]))'
          : 'EXISTS (SELECT 1 FROM lead_terms WHERE lead_id = leads.id AND term = ANY($?::text[]))',
        hashes,
      );
    }
    if (query.before !== undefined)
      if (due) add('(due_at, id) > ($?, $?)', ...decodeDueCursor(query.before));
      else add('(created_at, id) < ($?, $?)', ...decodeCursor(query.before));
    const limit = pageLimit(query.limit);
    const { rows } = await pool.query<StatusRow>(
      `SELECT * FROM leads ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY ${due ? 'due_at, id' : 'created_at DESC, id DESC'} LIMIT $${params.length + 1}`,
      [...params, limit + 1],
    );
    return { rows: rows.slice(0, limit), more: rows.length > limit };
  }

  async function get(db: Queryable, id: string) {
    const { rows } = await db.query<StatusRow>('SELECT * FROM leads WHERE id = $1', [id]);
    const row = rows[0];
    if (!row) return undefined;
    const events = await db.query<EventRow>('SELECT * FROM lead_events WHERE lead_id = $1 ORDER BY at, id', [
      id,
    ]);
    const calls = await db.query<CallRow>('SELECT * FROM lead_calls WHERE lead_id = $1 ORDER BY at, id', [
      id,
    ]);
    return inboxLeadOf(row, events.rows, sealer, calls.rows, await mergedFrom(db, id));
  }

  /** The status change of setStatus, in the caller's transaction: false when there is no such lead. */
  async function changeStatus(client: pg.PoolClient, id: string, status: LeadStatus, author: string) {
    // FOR UPDATE: two staff changing one lead at once each record the status they really changed from.
    const { rows } = await client.query<{ status: LeadStatus }>(
      'SELECT status FROM leads WHERE id = $1 FOR UPDATE',
      [id],
    );
    const row = rows[0];
    if (!row) return false;
    if (row.status === status) return true;
    const { settled, reached } = statusEffect(status);
    const now = new Date().toISOString();
    await client.query(
      `UPDATE leads SET status = $1,
         due_at = CASE WHEN $2 THEN NULL ELSE coalesce(due_at, $3) END,
         first_contact_at = CASE WHEN $4 THEN coalesce(first_contact_at, $3) ELSE first_contact_at END
       WHERE id = $5`,
      [status, settled, now, reached, id],
    );
    const eventId = newId();
    // The change is sealed (its from and to), like a note: only that one happened, when and by whom, is in clear.
    await insertEvent(client, {
      id: eventId,
      leadId: id,
      at: now,
      author,
      kind: 'status',
      from_status: null,
      to_status: null,
      note_sealed: sealStatusChange(sealer, id, eventId, { from: row.status, to: status }),
    });
    return true;
  }

  const insertEvent = (
    db: Queryable,
    event: Omit<EventRow, 'kind'> & { kind: EventRow['kind']; leadId: string },
  ) =>
    db.query(
      `INSERT INTO lead_events (id, lead_id, at, author, kind, from_status, to_status, note_sealed)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
      [
        event.id,
        event.leadId,
        event.at,
        event.author,
        event.kind,
        event.from_status,
        event.to_status,
        event.note_sealed,
      ],
    );

  return {
    async list(query) {
      const { rows, more } = await page(query);
      const last = rows.at(-1);
      const cursor = query.order === 'due' ? encodeDueCursor : encodeCursor;
      return {
        rows: rows.map((row) => inboxRowOf(row, sealer)),
        next: more && last ? cursor(last) : null,
      };
    },
    async *all(filter) {
      let before: string | undefined;
      do {
        const { rows, more } = await page({ ...filter, before, limit: MAX_PAGE });
        for (const row of rows) yield inboxRowOf(row, sealer);
        const last = rows.at(-1);
        before = more && last ? encodeCursor(last) : undefined;
      } while (before !== undefined);
    },
    get: (id) => get(pool, id),
    async setStatus(id, status: LeadStatus, author) {
      const found = await transaction(pool, (client) => changeStatus(client, id, status, author));
      if (found) await changed(id);
      return found ? get(pool, id) : undefined;
    },
    async addNote(id, text, author) {
      const note = await transaction(pool, async (client): Promise<LeadNote | undefined> => {
        const { rowCount } = await client.query('SELECT 1 FROM leads WHERE id = $1 FOR SHARE', [id]);
        if (!rowCount) return undefined;
        const note = { id: newId(), author, createdAt: new Date().toISOString(), text };
        await insertEvent(client, {
          id: note.id,
          leadId: id,
          at: note.createdAt,
          author,
          kind: 'note',
          from_status: null,
          to_status: null,
          note_sealed: sealer.seal(text, id, noteField(note.id)),
        });
        return note;
      });
      if (note) await changed(id);
      return note;
    },
    onLeadStored,
    onLeadChanged,
    async claim(id, email) {
      // One statement: of two members claiming at once, the second finds the first's e-mail.
      const { rows } = await pool.query<{ owner: string | null; mine: boolean }>(
        `WITH target AS (SELECT id, owner FROM leads WHERE id = $1 FOR UPDATE),
         claimed AS (
           UPDATE leads SET owner = $2, owner_auto = 0 FROM target
           WHERE leads.id = target.id AND (target.owner IS NULL OR target.owner = $2) RETURNING leads.id
         )
         SELECT target.owner, EXISTS (SELECT 1 FROM claimed) AS mine FROM target`,
        [id, email],
      );
      const row = rows[0];
      if (!row) return 'missing';
      if (!row.mine) return 'taken';
      await changed(id);
      return 'claimed';
    },
    async release(id, email, anyOwner) {
      const { rows } = await pool.query<{ released: boolean }>(
        `WITH target AS (SELECT id, owner FROM leads WHERE id = $1 FOR UPDATE),
         released AS (
           UPDATE leads SET owner = NULL, owner_auto = 0 FROM target
           WHERE leads.id = target.id AND (target.owner IS NULL OR target.owner = $2 OR $3) RETURNING leads.id
         )
         SELECT EXISTS (SELECT 1 FROM released) AS released FROM target`,
        [id, email, anyOwner],
      );
      const row = rows[0];
      if (!row) return 'missing';
      if (!row.released) return 'not-owner';
      await changed(id);
      return 'released';
    },
    async assign(id, owner) {
      const { rowCount } = await pool.query('UPDATE leads SET owner = $1, owner_auto = 0 WHERE id = $2', [
        owner,
        id,
      ]);
      if (rowCount) await changed(id);
      return Boolean(rowCount);
    },
    async logCall(id, author, outcome, callbackAt) {
      const found = await transaction(pool, async (client) => {
        const { rowCount } = await client.query('SELECT 1 FROM leads WHERE id = $1 FOR UPDATE', [id]);
        if (!rowCount) return false;
        await client.query(
          'INSERT INTO lead_calls (id, lead_id, at, author, outcome, callback_at) VALUES ($1, $2, $3, $4, $5, $6)',
          [newId(), id, new Date().toISOString(), author, outcome, callbackAt ?? null],
        );
        // A call by the owner round robin chose is their own act now: escalated no more than a claimed lead.
        await client.query(
          'UPDATE leads SET attempts = attempts + 1, owner_auto = CASE WHEN owner = $2 THEN 0 ELSE owner_auto END WHERE id = $1',
          [id, author],
        );
        await changeStatus(client, id, OUTCOME_STATUS[outcome], author);
        // A callback is a promise of its own: due at the time asked for, whatever the status did.
        const { due, reached } = callEffect(outcome, callbackAt);
        if (due) await client.query('UPDATE leads SET due_at = $1 WHERE id = $2', [due.to, id]);
        if (reached)
          await client.query(
            'UPDATE leads SET first_contact_at = coalesce(first_contact_at, $1) WHERE id = $2',
            [new Date().toISOString(), id],
          );
        return true;
      });
      if (!found) return undefined;
      await changed(id);
      return get(pool, id);
    },
    async takeEscalations(now, repeatMs, limit) {
      const at = new Date(now).toISOString();
      // SKIP LOCKED: a lead another instance is escalating right now is left to it.
      const { rows } = await pool.query<OverdueRow>(
        `UPDATE leads SET escalated_at = $1 WHERE id IN (
           SELECT id FROM leads WHERE due_at IS NOT NULL AND due_at <= $1 AND (owner IS NULL OR owner_auto = 1)
             AND (escalated_at IS NULL OR escalated_at <= $2)
           ORDER BY due_at, id LIMIT $3 FOR UPDATE SKIP LOCKED)
         RETURNING id, form_id, due_at, promised_at`,
        [at, new Date(now - repeatMs).toISOString(), limit],
      );
      return rows.map(overdueOf).sort((a, b) => a.dueAt.localeCompare(b.dueAt));
    },
    async escalationFailed(id) {
      await pool.query('UPDATE leads SET escalated_at = NULL WHERE id = $1', [id]);
    },
    async related(ids) {
      const since = daysBefore(Date.now(), RELATED_DAYS);
      const found = new Map<string, RelatedLead[]>();
      for (const id of ids) {
        const { rows } = await pool.query<StatusRow>('SELECT * FROM leads WHERE id = $1', [id]);
        const row = rows[0];
        if (!row) continue;
        const terms = contactTerms(sealer.openAll(row), sealer);
        if (terms.length === 0) {
          found.set(id, []);
          continue;
        }
        const same = await pool.query<RelatedLead>(
          `SELECT DISTINCT leads.id, leads.created_at AS "createdAt", leads.status FROM lead_terms
           JOIN leads ON leads.id = lead_terms.lead_id
           WHERE lead_terms.term = ANY($1::text[]) AND leads.id != $2
             AND lead_terms.term IN (SELECT term FROM lead_terms WHERE lead_id = $2)
             AND (leads.status IN ('new', 'not-reached') OR leads.due_at IS NOT NULL OR leads.created_at >= $3)
           ORDER BY leads.created_at DESC, leads.id DESC LIMIT 10`,
          [terms, id, since],
        );
        found.set(id, same.rows);
      }
      return found;
    },
    ...merging,
  };
}
