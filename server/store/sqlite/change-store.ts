// The change store on SQLite (the contract: contract/change-store.ts), on the lead store's main-thread connection, as
// the staff store: each write one IMMEDIATE transaction (saves are small and rare beside leads). One server process per
// SQLite file, so a scheduled publish needs no lease against another instance; the lease is kept all the same, so an
// instance stopped while running one hands it on after a restart. The claim, tried every few seconds, goes through the
// lead writer (write-ops.ts says why).
import type Database from 'better-sqlite3';
import type { ChangeStore } from '../contract/change-store.ts';
import type { LeadWriter } from './single-writer.ts';
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

export function sqliteChangeStore(db: Database.Database, writer: Pick<LeadWriter, 'run'>): ChangeStore {
  const immediate = <T>(work: () => T): T => db.transaction(work).immediate();
  const setRow = db.prepare<[string], ChangeSetRow>('SELECT * FROM change_sets WHERE id = ?');
  const documentRow = db.prepare<[string, string], ChangeDocumentRow>(
    'SELECT * FROM change_documents WHERE change_id = ? AND path = ?',
  );

  const store: ChangeStore = {
    async create({ id, title, author, baseRelease, now }) {
      db.prepare(
        `INSERT INTO change_sets (id, title, author, state, base_release, created_at, updated_at)
         VALUES (?, ?, ?, 'draft', ?, ?, ?)`,
      ).run(id, title, author, baseRelease, now, now);
      const row = setRow.get(id);
      if (!row) throw new Error(`change set ${id} was not stored`);
      return toChangeSet(row);
    },
    async get(id) {
      const row = setRow.get(id);
      return row && toChangeSet(row);
    },
    async list() {
      return db
        .prepare<[], ChangeSetRow>('SELECT * FROM change_sets ORDER BY created_at DESC, id')
        .all()
        .map(toChangeSet);
    },
    async documents(id) {
      return db
        .prepare<[string], ChangeDocumentRow>(
          'SELECT * FROM change_documents WHERE change_id = ? ORDER BY path',
        )
        .all(id)
        .map(toChangeDocument);
    },
    async save(id, save) {
      return oneOf(await store.saveAll(id, [save]));
    },
    async saveAll(id, saves) {
      distinct(saves);
      return immediate(() => {
        // Every version checked before anything is written: all or none.
        const currents = saves.map((save) => documentRow.get(id, save.path));
        for (const [index, save] of saves.entries()) {
          const current = currents[index];
          if ((current ? current.version : null) !== save.expectedVersion)
            return { saved: false as const, path: save.path, current: current && toChangeDocument(current) };
        }
        const versions = saves.map((save, index) => {
          const current = currents[index];
          const version = (current?.version ?? 0) + 1;
          if (current)
            db.prepare(
              `UPDATE change_documents SET text = ?, version = ?, updated_by = ?, updated_at = ?
               WHERE change_id = ? AND path = ?`,
            ).run(save.text, version, save.by, save.now, id, save.path);
          else
            db.prepare(
              `INSERT INTO change_documents (change_id, path, base_text, text, version, updated_by, updated_at)
               VALUES (?, ?, ?, ?, ?, ?, ?)`,
            ).run(id, save.path, save.baseText, save.text, version, save.by, save.now);
          db.prepare(
            'INSERT INTO change_revisions (change_id, path, version, actor, at, text) VALUES (?, ?, ?, ?, ?, ?)',
          ).run(id, save.path, version, save.by, save.now, save.text);
          db.prepare('UPDATE change_sets SET updated_at = ? WHERE id = ?').run(save.now, id);
          return version;
        });
        return { saved: true as const, versions };
      });
    },
    async revisions(id) {
      return db
        .prepare<[string], ChangeRevisionRow>(
          'SELECT path, version, actor, at, text FROM change_revisions WHERE change_id = ? ORDER BY at, path, version',
        )
        .all(id)
        .map(toRevision);
    },
    async setState(id, from, state, { requires, publishedRelease, now }) {
      const row = setRow.get(id);
      if (!row || !from.includes(row.state)) return false;
      return (
        db
          .prepare(
            `UPDATE change_sets SET state = ?, requires = coalesce(?, requires),
               published_release = coalesce(?, published_release), updated_at = ?
             WHERE id = ? AND state = ?`,
          )
          .run(
            state,
            requires ? JSON.stringify(requires) : null,
            publishedRelease ?? null,
            now,
            id,
            row.state,
          ).changes === 1
      );
    },
    async approve(id, approval) {
      db.prepare(
        `INSERT INTO change_approvals (change_id, actor, at, content_hash, covers, name, credential)
         VALUES (?, ?, ?, ?, ?, ?, ?)`,
      ).run(
        id,
        approval.by,
        approval.at,
        approval.contentHash,
        JSON.stringify(approval.covers),
        approval.name,
        approval.credential,
      );
    },
    async approvals(id) {
      return db
        .prepare<[string], ChangeApprovalRow>(
          'SELECT * FROM change_approvals WHERE change_id = ? ORDER BY seq',
        )
        .all(id)
        .map(toApproval);
    },
    async comment(id, comment) {
      db.prepare(
        'INSERT INTO change_comments (change_id, actor, at, path, pointer, text) VALUES (?, ?, ?, ?, ?, ?)',
      ).run(id, comment.by, comment.at, comment.path, comment.pointer, comment.text);
    },
    async comments(id) {
      return db
        .prepare<[string], ChangeCommentRow>('SELECT * FROM change_comments WHERE change_id = ? ORDER BY seq')
        .all(id)
        .map(toComment);
    },
    async schedule(id, at, by, now) {
      return (
        db
          .prepare(
            `UPDATE change_sets SET schedule_at = ?, schedule_by = ?, schedule_state = 'pending', schedule_error = NULL,
               schedule_lease = NULL, updated_at = ? WHERE id = ? AND schedule_state IS NOT 'running'`,
          )
          .run(at, by, now, id).changes === 1
      );
    },
    async cancelSchedule(id, now) {
      return immediate(() => {
        const removed = db
          .prepare(
            `UPDATE change_sets SET schedule_at = NULL, schedule_by = NULL, schedule_state = NULL, schedule_error = NULL,
               schedule_lease = NULL, updated_at = ? WHERE id = ? AND schedule_state IN ('pending', 'failed')`,
          )
          .run(now, id).changes;
        if (removed === 1) return { cancelled: true as const };
        return { cancelled: false as const, state: setRow.get(id)?.schedule_state ?? null };
      });
    },
    async claimDueSchedule(now, leaseMs) {
      const row = await writer.run({ kind: 'claim-schedule', now, leaseMs });
      return row ? toChangeSet(row) : undefined;
    },
    async finishSchedule(id, { error }) {
      db.prepare(
        'UPDATE change_sets SET schedule_state = ?, schedule_error = ?, schedule_lease = NULL WHERE id = ?',
      ).run(error === null ? 'done' : 'failed', error, id);
    },
    async failedSchedules() {
      return db
        .prepare<[], ChangeSetRow>(
          "SELECT * FROM change_sets WHERE schedule_state = 'failed' AND state <> 'published' ORDER BY schedule_at DESC",
        )
        .all()
        .map(toChangeSet);
    },
    async presence({ changeId, path, email, name, at }, withinMs) {
      return immediate(() => {
        db.prepare(
          `INSERT INTO change_presence (change_id, path, email, name, seen_at) VALUES (?, ?, ?, ?, ?)
           ON CONFLICT (change_id, path, email) DO UPDATE SET name = excluded.name, seen_at = excluded.seen_at`,
        ).run(changeId, path, email, name, at);
        db.prepare('DELETE FROM change_presence WHERE seen_at < ?').run(at - withinMs);
        return db
          .prepare<[string, string, string], { email: string; name: string }>(
            `SELECT email, name FROM change_presence WHERE change_id = ? AND path = ? AND email <> ?
             ORDER BY seen_at DESC, email`,
          )
          .all(changeId, path, email);
      });
    },
    async addPreviewLink(id, tokenHash, expiresAt, now) {
      db.prepare(
        'INSERT INTO preview_links (token_hash, change_id, created_at, expires_at) VALUES (?, ?, ?, ?)',
      ).run(tokenHash, id, now, expiresAt);
    },
    async previewLink(tokenHash) {
      const row = db
        .prepare<[string], PreviewLinkRow>('SELECT * FROM preview_links WHERE token_hash = ?')
        .get(tokenHash);
      return row && toPreviewLink(row);
    },
    async revokePreviewLinks(id, now) {
      return db
        .prepare(
          'UPDATE preview_links SET revoked_at = ? WHERE change_id = ? AND revoked_at IS NULL AND expires_at > ?',
        )
        .run(now, id, now).changes;
    },
  };
  return store;
}
