// The change store on PostgreSQL: the SQLite change store's statements (sqlite/change-store.ts) in PostgreSQL's words.
// A save's compare-and-set holds the document's row (FOR UPDATE) so two instances never both save over one version;
// a scheduled publish is claimed with a lease (FOR UPDATE SKIP LOCKED), so one instance runs it.
import type pg from 'pg';
import type { ChangeStore } from '../contract/change-store.ts';
import {
  toApproval,
  toChangeDocument,
  toChangeSet,
  toComment,
  toPreviewLink,
  toRevision,
  type ChangeApprovalRow,
  type ChangeCommentRow,
  type ChangeDocumentRow,
  type ChangeRevisionRow,
  type ChangeSetRow,
  type PreviewLinkRow,
  distinct,
  oneOf,
} from '../shared/change-rows.ts';
import { transaction, type Queryable } from './pg-schema.ts';

export function postgresChangeStore(pool: pg.Pool): ChangeStore {
  const rows = async <T extends pg.QueryResultRow>(db: Queryable, sql: string, values: unknown[] = []) =>
    (await db.query<T>(sql, values)).rows;
  const setRow = async (db: Queryable, id: string) =>
    (await rows<ChangeSetRow>(db, 'SELECT * FROM change_sets WHERE id = $1', [id]))[0];

  const store: ChangeStore = {
    async create({ id, title, author, baseRelease, now }) {
      await pool.query(
        `INSERT INTO change_sets (id, title, author, state, base_release, created_at, updated_at)
         VALUES ($1, $2, $3, 'draft', $4, $5, $5)`,
        [id, title, author, baseRelease, now],
      );
      const row = await setRow(pool, id);
      if (!row) throw new Error(`change set ${id} was not stored`);
      return toChangeSet(row);
    },
    async get(id) {
      const row = await setRow(pool, id);
      return row && toChangeSet(row);
    },
    async list() {
      return (await rows<ChangeSetRow>(pool, 'SELECT * FROM change_sets ORDER BY created_at DESC, id')).map(
        toChangeSet,
      );
    },
    async documents(id) {
      return (
        await rows<ChangeDocumentRow>(
          pool,
          'SELECT * FROM change_documents WHERE change_id = $1 ORDER BY path',
          [id],
        )
      ).map(toChangeDocument);
    },
    async save(id, save) {
      return oneOf(await store.saveAll(id, [save]));
    },
    saveAll: (id, saves) =>
      transaction(pool, async (db) => {
        distinct(saves);
        // The set's row first: two first saves of one path (no document row to lock yet) wait for each other here.
        await db.query('SELECT 1 FROM change_sets WHERE id = $1 FOR UPDATE', [id]);
        // Every version checked before anything is written: all or none.
        const currents: (ChangeDocumentRow | undefined)[] = [];
        for (const save of saves) {
          const current = (
            await rows<ChangeDocumentRow>(
              db,
              'SELECT * FROM change_documents WHERE change_id = $1 AND path = $2 FOR UPDATE',
              [id, save.path],
            )
          )[0];
          if ((current ? Number(current.version) : null) !== save.expectedVersion)
            return { saved: false as const, path: save.path, current: current && toChangeDocument(current) };
          currents.push(current);
        }
        const versions: number[] = [];
        for (const [index, save] of saves.entries()) {
          const current = currents[index];
          const version = (current ? Number(current.version) : 0) + 1;
          if (current)
            await db.query(
              `UPDATE change_documents SET text = $1, version = $2, updated_by = $3, updated_at = $4
               WHERE change_id = $5 AND path = $6`,
              [save.text, version, save.by, save.now, id, save.path],
            );
          else
            await db.query(
              `INSERT INTO change_documents (change_id, path, base_text, text, version, updated_by, updated_at)
               VALUES ($1, $2, $3, $4, $5, $6, $7)`,
              [id, save.path, save.baseText, save.text, version, save.by, save.now],
            );
          await db.query(
            'INSERT INTO change_revisions (change_id, path, version, actor, at, text) VALUES ($1, $2, $3, $4, $5, $6)',
            [id, save.path, version, save.by, save.now, save.text],
          );
          await db.query('UPDATE change_sets SET updated_at = $1 WHERE id = $2', [save.now, id]);
          versions.push(version);
        }
        return { saved: true as const, versions };
      }),
    async revisions(id) {
      return (
        await rows<ChangeRevisionRow>(
          pool,
          'SELECT path, version, actor, at, text FROM change_revisions WHERE change_id = $1 ORDER BY at, path, version',
          [id],
        )
      ).map(toRevision);
    },
    async setState(id, from, state, { requires, publishedRelease, now }) {
      const { rowCount } = await pool.query(
        `UPDATE change_sets SET state = $1, requires = coalesce($2, requires),
           published_release = coalesce($3, published_release), updated_at = $4
         WHERE id = $5 AND state = ANY($6::text[])`,
        [state, requires ? JSON.stringify(requires) : null, publishedRelease ?? null, now, id, [...from]],
      );
      return rowCount === 1;
    },
    async approve(id, approval) {
      await pool.query(
        `INSERT INTO change_approvals (change_id, actor, at, content_hash, covers, name, credential)
         VALUES ($1, $2, $3, $4, $5, $6, $7)`,
        [
          id,
          approval.by,
          approval.at,
          approval.contentHash,
          JSON.stringify(approval.covers),
          approval.name,
          approval.credential,
        ],
      );
    },
    async approvals(id) {
      return (
        await rows<ChangeApprovalRow>(
          pool,
          'SELECT * FROM change_approvals WHERE change_id = $1 ORDER BY seq',
          [id],
        )
      ).map(toApproval);
    },
    async comment(id, comment) {
      await pool.query(
        'INSERT INTO change_comments (change_id, actor, at, path, pointer, text) VALUES ($1, $2, $3, $4, $5, $6)',
        [id, comment.by, comment.at, comment.path, comment.pointer, comment.text],
      );
    },
    async comments(id) {
      return (
        await rows<ChangeCommentRow>(
          pool,
          'SELECT * FROM change_comments WHERE change_id = $1 ORDER BY seq',
          [id],
        )
      ).map(toComment);
    },
    async schedule(id, at, by, now) {
      const { rowCount } = await pool.query(
        `UPDATE change_sets SET schedule_at = $1, schedule_by = $2, schedule_state = 'pending', schedule_error = NULL,
           schedule_lease = NULL, updated_at = $3 WHERE id = $4 AND schedule_state IS DISTINCT FROM 'running'`,
        [at, by, now, id],
      );
      return rowCount === 1;
    },
    async cancelSchedule(id, now) {
      // One statement: a claim (FOR UPDATE SKIP LOCKED) on another instance either ran first (the row is running, not
      // pending, and this removes nothing) or waits for this one and finds no schedule.
      const { rowCount } = await pool.query(
        `UPDATE change_sets SET schedule_at = NULL, schedule_by = NULL, schedule_state = NULL, schedule_error = NULL,
           schedule_lease = NULL, updated_at = $1 WHERE id = $2 AND schedule_state IN ('pending', 'failed')`,
        [now, id],
      );
      if (rowCount === 1) return { cancelled: true as const };
      return { cancelled: false as const, state: (await setRow(pool, id))?.schedule_state ?? null };
    },
    async claimDueSchedule(now, leaseMs) {
      const claimed = await rows<ChangeSetRow>(
        pool,
        `UPDATE change_sets SET schedule_state = 'running', schedule_lease = $2
         WHERE id = (
           SELECT id FROM change_sets
           WHERE (schedule_state = 'pending' AND schedule_at <= $1) OR (schedule_state = 'running' AND schedule_lease < $1)
           ORDER BY schedule_at LIMIT 1 FOR UPDATE SKIP LOCKED
         )
         RETURNING *`,
        [now, now + leaseMs],
      );
      return claimed[0] && toChangeSet(claimed[0]);
    },
    async finishSchedule(id, { error }) {
      await pool.query(
        'UPDATE change_sets SET schedule_state = $1, schedule_error = $2, schedule_lease = NULL WHERE id = $3',
        [error === null ? 'done' : 'failed', error, id],
      );
    },
    async failedSchedules() {
      return (
        await rows<ChangeSetRow>(
          pool,
          "SELECT * FROM change_sets WHERE schedule_state = 'failed' AND state <> 'published' ORDER BY schedule_at DESC",
        )
      ).map(toChangeSet);
    },
    async presence({ changeId, path, email, name, at }, withinMs) {
      // Three statements, no transaction: a heartbeat racing another one or a prune changes who is listed by a moment.
      await pool.query(
        `INSERT INTO change_presence (change_id, path, email, name, seen_at) VALUES ($1, $2, $3, $4, $5)
         ON CONFLICT (change_id, path, email) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at`,
        [changeId, path, email, name, at],
      );
      await pool.query('DELETE FROM change_presence WHERE seen_at < $1', [at - withinMs]);
      return rows<{ email: string; name: string }>(
        pool,
        `SELECT email, name FROM change_presence WHERE change_id = $1 AND path = $2 AND email <> $3
           AND seen_at >= $4 ORDER BY seen_at DESC, email`,
        [changeId, path, email, at - withinMs],
      );
    },
    async addPreviewLink(id, tokenHash, expiresAt, now) {
      await pool.query(
        'INSERT INTO preview_links (token_hash, change_id, created_at, expires_at) VALUES ($1, $2, $3, $4)',
        [tokenHash, id, now, expiresAt],
      );
    },
    async previewLink(tokenHash) {
      const row = (
        await rows<PreviewLinkRow>(pool, 'SELECT * FROM preview_links WHERE token_hash = $1', [tokenHash])
      )[0];
      return row && toPreviewLink(row);
    },
    async revokePreviewLinks(id, now) {
      const { rowCount } = await pool.query(
        'UPDATE preview_links SET revoked_at = $1 WHERE change_id = $2 AND revoked_at IS NULL AND expires_at > $1',
        [now, id],
      );
      return rowCount ?? 0;
    },
  };
  return store;
}
