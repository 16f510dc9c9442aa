// The admissions inbox over the PostgreSQL lead database: the SQLite inbox's queries (sqlite/inbox-store.ts) in PostgreSQL's
// words, with the same cursors, search through keyed hashes, and row shapes, so both stores answer alike.
import type pg from 'pg';
import type { InboxPageQuery, InboxStore, LeadNote, LeadStatus } from '../contract/inbox.ts';
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
import { transaction, type Queryable } from './pg-schema.ts';

export interface PostgresInboxParts {
  pool: pg.Pool;
  sealer: Sealer;
  onLeadStored: InboxStore['onLeadStored'];
}

export function createPostgresInboxStore({ pool, sealer, onLeadStored }: PostgresInboxParts): InboxStore {
  async function page(query: InboxPageQuery): Promise<{ rows: StatusRow[]; more: boolean }> {
    const where: string[] = [];
    const params: unknown[] = [];
    // Each condition names its values $?, numbered here in order.
    const add = (condition: string, ...values: unknown[]) => {
      where.push(condition.replace(/\$\?/g, () => `$${params.push(values.shift())}`));
    };
    if (query.status !== undefined) add('status = $?', query.status);
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
    if (query.before !== undefined) add('(created_at, id) < ($?, $?)', ...decodeCursor(query.before));
    const limit = pageLimit(query.limit);
    const { rows } = await pool.query<StatusRow>(
      `SELECT * FROM leads ${where.length > 0 ? `WHERE ${where.join(' AND ')}` : ''}
       ORDER BY created_at DESC, id DESC LIMIT $${params.length + 1}`,
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
    return inboxLeadOf(row, events.rows, sealer);
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
      return {
        rows: rows.map((row) => inboxRowOf(row, sealer)),
        next: more && last ? encodeCursor(last) : null,
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
      // FOR UPDATE: two staff changing one lead at once each record the status they really changed from.
      const found = await transaction(pool, async (client) => {
        const { rows } = await client.query<{ status: LeadStatus }>(
          'SELECT status FROM leads WHERE id = $1 FOR UPDATE',
          [id],
        );
        const row = rows[0];
        if (!row) return false;
        if (row.status === status) return true;
        await client.query('UPDATE leads SET status = $1 WHERE id = $2', [status, id]);
        const eventId = newId();
        // The change is sealed (its from and to), like a note: only that one happened, when and by whom, is in clear.
        await insertEvent(client, {
          id: eventId,
          leadId: id,
          at: new Date().toISOString(),
          author,
          kind: 'status',
          from_status: null,
          to_status: null,
          note_sealed: sealStatusChange(sealer, id, eventId, { from: row.status, to: status }),
        });
        return true;
      });
      return found ? get(pool, id) : undefined;
    },
    addNote: (id, text, author) =>
      transaction(pool, async (client): Promise<LeadNote | undefined> => {
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
      }),
    onLeadStored,
  };
}
