// The release store on SQLite (the contract: contract/release-store.ts), in the lead database's file, through the
// main thread's connection, not the writer's: a release is tens of megabytes, which must neither go through the lead
// writer's queue nor hold
// SQLite's one write lock for long. So its bytes are written in small transactions (each file once by its hash), between
// which the lead writer thread gets the lock, and this thread's event loop answers visitors; then the release row, its
// file list and documents in one. Reads are paged the same way. The live pointer is one row read by one prepared
// statement; a serving server reads it and reports through the writer thread instead (sqlite/lead-store.ts).
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type Database from 'better-sqlite3';
import type {
  InstanceReport,
  LiveRelease,
  NewRelease,
  ReleaseDocument,
  ReleaseEvent,
  ReleaseEventKind,
  ReleaseStore,
  ReleaseSummary,
} from '../contract/release-store.ts';
import type { PageReviews } from '../../../renderer/medical-review.ts';
import type { ReleaseEventRow, ReleaseRow } from '../contract/rows.ts';
import { contentHashOf, storeBlobs, toEvent, toSummary } from '../shared/release-blobs.ts';
import { sqlitePublishLock } from './publish-lock.ts';

/**
 * Files per read while a server prepares a release beside its visitors: each read is synchronous on this thread, so
 * a few pages' worth (a page and its copies are some 100 KB) keeps every pause to a millisecond or two.
 */
const READ_PAGE_FILES = 32;

/**
 * The release store on `db`: a connection of its own to the lead database's file (WAL, busy_timeout), already
 * migrated; for ':memory:', the lead store's own connection (another would be another database).
 */
export function createSqliteReleaseStore(db: Database.Database): ReleaseStore {
  const hasBlob = db.prepare<[string], { found: 1 }>('SELECT 1 AS found FROM release_blobs WHERE hash = ?');
  const insertBlob = db.prepare<[string, Buffer]>(
    'INSERT OR IGNORE INTO release_blobs (hash, bytes) VALUES (?, ?)',
  );
  const nextId = db.prepare<[], { id: number }>('SELECT coalesce(max(id), 0) + 1 AS id FROM releases');
  const insertRelease = db.prepare<[number, string, string, string, string, string, string]>(
    `INSERT INTO releases (id, at, author, message, code_version, content_hash, reviews)
     VALUES (?, ?, ?, ?, ?, ?, ?)`,
  );
  const insertFile = db.prepare<[number, string, string]>(
    'INSERT INTO release_files (release_id, path, hash) VALUES (?, ?, ?)',
  );
  const insertDocument = db.prepare<[number, string, string]>(
    'INSERT INTO release_documents (release_id, path, hash) VALUES (?, ?, ?)',
  );
  const selectAll = db.prepare<[], ReleaseRow>('SELECT * FROM releases ORDER BY id');
  const selectOne = db.prepare<[number], ReleaseRow>('SELECT * FROM releases WHERE id = ?');
  const selectFilesPage = db.prepare<[number, string, number], { path: string; bytes: Buffer }>(
    `SELECT release_files.path, release_blobs.bytes FROM release_files
     JOIN release_blobs ON release_blobs.hash = release_files.hash
     WHERE release_files.release_id = ? AND release_files.path > ? ORDER BY release_files.path LIMIT ?`,
  );
  const selectFileHashes = db.prepare<[number], { path: string; hash: string }>(
    'SELECT path, hash FROM release_files WHERE release_id = ?',
  );
  const selectFile = db.prepare<[number, string], { bytes: Buffer }>(
    `SELECT release_blobs.bytes FROM release_files JOIN release_blobs ON release_blobs.hash = release_files.hash
     WHERE release_files.release_id = ? AND release_files.path = ?`,
  );
  const selectDocuments = db.prepare<[number, string, string], { path: string; bytes: Buffer }>(
    `SELECT release_documents.path, release_blobs.bytes FROM release_documents
     JOIN release_blobs ON release_blobs.hash = release_documents.hash
     WHERE release_documents.release_id = ? AND substr(release_documents.path, 1, length(?)) = ?
     ORDER BY release_documents.path`,
  );
  const selectLive = db.prepare<[], { release_id: number; generation: number }>(
    'SELECT release_id, generation FROM live_release WHERE id = 1',
  );
  const insertLive = db.prepare<[number]>(
    'INSERT INTO live_release (id, release_id, generation) VALUES (1, ?, 1)',
  );
  const updateLive = db.prepare<[number, number]>(
    'UPDATE live_release SET release_id = ?, generation = generation + 1 WHERE id = 1 AND generation = ?',
  );
  const insertEvent = db.prepare<[string, ReleaseEventKind, number, number | null, string]>(
    'INSERT INTO release_events (at, kind, release_id, previous_id, actor) VALUES (?, ?, ?, ?, ?)',
  );
  const selectEvents = db.prepare<[], ReleaseEventRow>('SELECT * FROM release_events ORDER BY seq');
  const upsertInstance = db.prepare<[string, number, string]>(
    `INSERT INTO release_instances (instance, release_id, at) VALUES (?, ?, ?)
     ON CONFLICT (instance) DO UPDATE SET release_id = excluded.release_id, at = excluded.at`,
  );
  const selectInstances = db.prepare<[string], { instance: string; release_id: number; at: string }>(
    'SELECT instance, release_id, at FROM release_instances WHERE at >= ? ORDER BY instance',
  );
  const deleteInstance = db.prepare<[string]>('DELETE FROM release_instances WHERE instance = ?');

  const writeBlobs = db.transaction((blobs: readonly { hash: string; bytes: Buffer }[]) => {
    for (const { hash, bytes } of blobs) insertBlob.run(hash, bytes);
  });

  const writeRelease = db.transaction(
    (
      release: NewRelease,
      files: readonly { path: string; hash: string }[],
      documents: readonly { path: string; hash: string }[],
      contentHash: string,
    ): ReleaseSummary => {
      // In the write transaction (IMMEDIATE): no other writer can take the same id meanwhile.
      const id = nextId.get()?.id ?? 1;
      const at = new Date().toISOString();
      insertRelease.run(
        id,
        at,
        release.author,
        release.message,
        release.codeVersion,
        contentHash,
        JSON.stringify(release.reviews ?? {}),
      );
      for (const { path, hash } of files) insertFile.run(id, path, hash);
      for (const { path, hash } of documents) insertDocument.run(id, path, hash);
      return {
        id,
        at,
        author: release.author,
        message: release.message,
        codeVersion: release.codeVersion,
        contentHash,
      };
    },
  );

  const switchLive = db.transaction(
    (releaseId: number, expected: number, kind: ReleaseEventKind, actor: string): LiveRelease | undefined => {
      if (!selectOne.get(releaseId)) return undefined;
      const current = selectLive.get();
      if ((current?.generation ?? 0) !== expected) return undefined;
      if (current) updateLive.run(releaseId, expected);
      else insertLive.run(releaseId);
      insertEvent.run(new Date().toISOString(), kind, releaseId, current?.release_id ?? null, actor);
      return { releaseId, generation: expected + 1 };
    },
  );

  const mustExist = (id: number) => {
    if (!selectOne.get(id)) throw new Error(`there is no release ${id}`);
  };

  return {
    async create(release) {
      // The bytes first, a short transaction at a time: a process killed here leaves only bytes no release names.
      // Bytes already stored (most of a release that changed only content) are not written again: a read, no lock.
      const { files, documents } = await storeBlobs(release, (batch) => {
        const missing = batch.filter((blob) => !hasBlob.get(blob.hash));
        if (missing.length > 0) writeBlobs.immediate(missing);
      });
      return writeRelease.immediate(release, files, documents, contentHashOf(release.documents));
    },
    list: async () => selectAll.all().map(toSummary),
    async get(id) {
      const row = selectOne.get(id);
      return row && toSummary(row);
    },
    async files(id) {
      mustExist(id);
      const files = new Map<string, Buffer>();
      // Pages in path order (a release never changes, so pages read apart are of one whole), the event loop free between.
      for (let after = ''; ;) {
        const page = selectFilesPage.all(id, after, READ_PAGE_FILES);
        for (const { path, bytes } of page) files.set(path, bytes);
        if (page.length < READ_PAGE_FILES) break;
        after = page[page.length - 1]?.path ?? after;
        await yieldToEvents();
      }
      return files;
    },
    async fileHashes(id) {
      mustExist(id);
      return new Map(selectFileHashes.all(id).map(({ path, hash }) => [path, hash]));
    },
    file: async (id, path) => selectFile.get(id, path)?.bytes,
    async documents(id, { under } = {}): Promise<ReleaseDocument[]> {
      mustExist(id);
      const prefix = under === undefined ? '' : `${under}/`;
      return selectDocuments
        .all(id, prefix, prefix)
        .map(({ path, bytes }) => ({ path, text: bytes.toString('utf8') }));
    },
    async reviews(id) {
      const row = selectOne.get(id);
      if (!row) throw new Error(`there is no release ${id}`);
      return JSON.parse(row.reviews) as PageReviews;
    },
    async live() {
      const row = selectLive.get();
      return row && { releaseId: row.release_id, generation: row.generation };
    },
    setLive: async (releaseId, expectedGeneration, { kind, actor }) =>
      switchLive.immediate(releaseId, expectedGeneration, kind, actor),
    events: async (): Promise<ReleaseEvent[]> => selectEvents.all().map(toEvent),
    withPublishLock: sqlitePublishLock(db),
    // A file has no NOTIFY: the engine polls live(), one indexed row.
    onLiveChange: async () => async () => undefined,
    async reportServing(instance, releaseId) {
      upsertInstance.run(instance, releaseId, new Date().toISOString());
    },
    instances: async (since): Promise<InstanceReport[]> =>
      selectInstances
        .all(new Date(since).toISOString())
        .map((row) => ({ instance: row.instance, releaseId: row.release_id, at: row.at })),
    async forgetInstance(instance) {
      deleteInstance.run(instance);
    },
  };
}
