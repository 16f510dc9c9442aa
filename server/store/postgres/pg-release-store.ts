// The release store on PostgreSQL (the contract: contract/release-store.ts), for several instances on one database.
// Bytes (bytea) are written in short statements, each file once by its hash; then the release row, its file list and
// documents in one transaction. The live pointer is one row changed by compare-and-set in the same transaction as its
// event and a NOTIFY on RELEASE_CHANNEL, which every instance LISTENs to (pg-notify.ts). Publishes run one at a time
// under an advisory lock held by a connection of its own, outside the pool: it dies with its process.
import pg from 'pg';
import type {
  InstanceReport,
  LiveRelease,
  ReleaseDocument,
  ReleaseEvent,
  ReleaseStore,
} from '../contract/release-store.ts';
import type { PageReviews } from '../../../renderer/medical-review.ts';
import type { ReleaseEventRow, ReleaseRow } from '../contract/rows.ts';
import {
  BLOB_BATCH_FILES,
  contentHashOf,
  storeBlobs,
  toEvent,
  toSummary,
  type StoredBlob,
} from '../shared/release-blobs.ts';
import { listenOn } from './pg-notify.ts';
import { transaction } from './pg-schema.ts';

/** The channel a change of the live pointer is announced on; its payload is `<release id>:<generation>`. */
export const RELEASE_CHANNEL = 'release_live';
/** The application_name of each instance's LISTEN connection for it (pg_stat_activity). */
export const RELEASE_LISTENER = 'release-listener';
/** The advisory lock key every publisher takes (any constant apart from the migration's; this one spells "publish"). */
const PUBLISH_LOCK = 0x7075626c697368;

/**
 * Writes the blobs of `batch` the database lacks. Most of a new release is already stored (only content changed), so
 * it first asks which hashes are there, and sends only the others' bytes, each as a parameter of its own: node-postgres
 * sends a Buffer parameter as binary, where an array of them would be spelled out in hex, twice the size.
 */
async function writeMissing(pool: pg.Pool, batch: readonly StoredBlob[]): Promise<void> {
  const { rows } = await pool.query<{ hash: string }>(
    'SELECT hash FROM release_blobs WHERE hash = ANY($1::text[])',
    [batch.map((blob) => blob.hash)],
  );
  const missing = new Map<string, Buffer>();
  const stored = new Set(rows.map((row) => row.hash));
  for (const { hash, bytes } of batch) if (!stored.has(hash)) missing.set(hash, bytes);
  if (missing.size === 0) return;
  const values = [...missing].flat();
  await pool.query(
    `INSERT INTO release_blobs (hash, bytes) VALUES ${[...missing.keys()].map((_, n) => `($${2 * n + 1}, $${2 * n + 2})`).join(', ')}
     ON CONFLICT (hash) DO NOTHING`,
    values,
  );
}

/** The release store on `pool`; `url` for the connections that live outside it (the publish lock, LISTEN). */
export function createPostgresReleaseStore(
  pool: pg.Pool,
  url: string,
): ReleaseStore & { close(): Promise<void> } {
  const listeners = new Set<{ stop(): Promise<void> }>();

  const mustExist = async (id: number) => {
    const { rows } = await pool.query('SELECT 1 FROM releases WHERE id = $1', [id]);
    if (rows.length === 0) throw new Error(`there is no release ${id}`);
  };

  return {
    async create(release) {
      // The bytes first, each statement short (its own commit): a process killed here leaves only bytes no release names.
      const { files, documents } = await storeBlobs(release, (batch) => writeMissing(pool, batch));
      const contentHash = contentHashOf(release.documents);
      return transaction(pool, async (client) => {
        // Ids in the order stored, without gaps: one creator at a time takes max + 1 (reads stay free meanwhile).
        await client.query('LOCK TABLE releases IN EXCLUSIVE MODE');
        const { rows } = await client.query<ReleaseRow>(
          `INSERT INTO releases (id, at, author, message, code_version, content_hash, reviews)
           SELECT coalesce(max(id), 0) + 1, $1, $2, $3, $4, $5, $6 FROM releases RETURNING *`,
          [
            new Date().toISOString(),
            release.author,
            release.message,
            release.codeVersion,
            contentHash,
            JSON.stringify(release.reviews ?? {}),
          ],
        );
        const row = rows[0];
        if (!row) throw new Error('the release was not stored');
        await client.query(
          'INSERT INTO release_files (release_id, path, hash) SELECT $1, * FROM unnest($2::text[], $3::text[])',
          [row.id, files.map((file) => file.path), files.map((file) => file.hash)],
        );
        await client.query(
          'INSERT INTO release_documents (release_id, path, hash) SELECT $1, * FROM unnest($2::text[], $3::text[])',
          [row.id, documents.map((document) => document.path), documents.map((document) => document.hash)],
        );
        return toSummary(row);
      });
    },
    async list() {
      const { rows } = await pool.query<ReleaseRow>('SELECT * FROM releases ORDER BY id');
      return rows.map(toSummary);
    },
    async get(id) {
      const { rows } = await pool.query<ReleaseRow>('SELECT * FROM releases WHERE id = $1', [id]);
      return rows[0] && toSummary(rows[0]);
    },
    async files(id) {
      await mustExist(id);
      const files = new Map<string, Buffer>();
      // Pages in path order, each a short query (a whole site in one would be tens of MB in one answer).
      for (let after: string | null = null; ;) {
        const { rows }: { rows: { path: string; bytes: Buffer }[] } = await pool.query(
          `SELECT release_files.path, release_blobs.bytes FROM release_files
           JOIN release_blobs ON release_blobs.hash = release_files.hash
           WHERE release_files.release_id = $1 AND ($2::text IS NULL OR release_files.path > $2)
           ORDER BY release_files.path LIMIT $3`,
          [id, after, BLOB_BATCH_FILES],
        );
        for (const { path, bytes } of rows) files.set(path, bytes);
        if (rows.length < BLOB_BATCH_FILES) break;
        after = rows[rows.length - 1]?.path ?? null;
      }
      return files;
    },
    async fileHashes(id) {
      await mustExist(id);
      const { rows } = await pool.query<{ path: string; hash: string }>(
        'SELECT path, hash FROM release_files WHERE release_id = $1',
        [id],
      );
      return new Map(rows.map(({ path, hash }) => [path, hash]));
    },
    async file(id, path) {
      const { rows } = await pool.query<{ bytes: Buffer }>(
        `SELECT release_blobs.bytes FROM release_files JOIN release_blobs ON release_blobs.hash = release_files.hash
         WHERE release_files.release_id = $1 AND release_files.path = $2`,
        [id, path],
      );
      return rows[0]?.bytes;
    },
    async documents(id, { under } = {}): Promise<ReleaseDocument[]> {
      await mustExist(id);
      const { rows } = await pool.query<{ path: string; bytes: Buffer }>(
        `SELECT release_documents.path, release_blobs.bytes FROM release_documents
         JOIN release_blobs ON release_blobs.hash = release_documents.hash
         WHERE release_documents.release_id = $1 AND left(release_documents.path, length($2)) = $2
         ORDER BY release_documents.path`,
        [id, under === undefined ? '' : `${under}/`],
      );
      return rows.map(({ path, bytes }) => ({ path, text: bytes.toString('utf8') }));
    },
    async reviews(id) {
      const { rows } = await pool.query<{ reviews: string }>('SELECT reviews FROM releases WHERE id = $1', [
        id,
      ]);
      if (!rows[0]) throw new Error(`there is no release ${id}`);
      return JSON.parse(rows[0].reviews) as PageReviews;
    },
    async live() {
      const { rows } = await pool.query<{ release_id: number; generation: number }>({
        name: 'release-live',
        text: 'SELECT release_id, generation FROM live_release WHERE id = 1',
      });
      const row = rows[0];
      return row && { releaseId: row.release_id, generation: row.generation };
    },
    setLive: (releaseId, expected, { kind, actor }) =>
      transaction(pool, async (client): Promise<LiveRelease | undefined> => {
        const { rows: found } = await client.query('SELECT 1 FROM releases WHERE id = $1', [releaseId]);
        if (found.length === 0) return undefined;
        // The row locked until commit: a second setter waits, then finds the generation moved.
        const { rows } = await client.query<{ release_id: number; generation: number }>(
          'SELECT release_id, generation FROM live_release WHERE id = 1 FOR UPDATE',
        );
        const current = rows[0];
        if ((current?.generation ?? 0) !== expected) return undefined;
        const changed = current
          ? await client.query('UPDATE live_release SET release_id = $1, generation = $2 WHERE id = 1', [
              releaseId,
              expected + 1,
            ])
          : // Two first setters at once: the primary key lets one in; the other inserts nothing, and is refused.
            await client.query(
              'INSERT INTO live_release (id, release_id, generation) VALUES (1, $1, 1) ON CONFLICT (id) DO NOTHING',
              [releaseId],
            );
        if (changed.rowCount !== 1) return undefined;
        await client.query(
          'INSERT INTO release_events (at, kind, release_id, previous_id, actor) VALUES ($1, $2, $3, $4, $5)',
          [new Date().toISOString(), kind, releaseId, current?.release_id ?? null, actor],
        );
        // Delivered by PostgreSQL when (and only if) this transaction commits.
        await client.query('SELECT pg_notify($1, $2)', [RELEASE_CHANNEL, `${releaseId}:${expected + 1}`]);
        return { releaseId, generation: expected + 1 };
      }),
    async events(): Promise<ReleaseEvent[]> {
      const { rows } = await pool.query<ReleaseEventRow>('SELECT * FROM release_events ORDER BY seq');
      return rows.map(toEvent);
    },
    async withPublishLock(work, onWait) {
      // Its own connection, outside the pool: no statement timeout while it waits, and the lock dies with it.
      const client = new pg.Client({ connectionString: url, application_name: 'release-publish-lock' });
      // A connection lost while held is told to the query in flight, if any; unheard, the event would end the process.
      client.on('error', () => undefined);
      await client.connect();
      try {
        const { rows } = await client.query<{ taken: boolean }>('SELECT pg_try_advisory_lock($1) AS taken', [
          PUBLISH_LOCK,
        ]);
        if (!rows[0]?.taken) {
          onWait?.();
          await client.query('SELECT pg_advisory_lock($1)', [PUBLISH_LOCK]);
        }
        return await work();
      } finally {
        // Ending the session releases the lock (an explicit unlock would need the connection alive all the same).
        await client.end().catch(() => undefined);
      }
    },
    async onLiveChange(listener) {
      // Once more after a reconnect: a change announced while the connection was down was not heard.
      const listening = await listenOn(url, RELEASE_CHANNEL, {
        onPayload: () => listener(),
        onReconnect: () => listener(),
        applicationName: RELEASE_LISTENER,
      });
      listeners.add(listening);
      return async () => {
        listeners.delete(listening);
        await listening.stop();
      };
    },
    async reportServing(instance, releaseId) {
      await pool.query(
        `INSERT INTO release_instances (instance, release_id, at) VALUES ($1, $2, $3)
         ON CONFLICT (instance) DO UPDATE SET release_id = excluded.release_id, at = excluded.at`,
        [instance, releaseId, new Date().toISOString()],
      );
    },
    async instances(since): Promise<InstanceReport[]> {
      const { rows } = await pool.query<{ instance: string; release_id: number; at: string }>(
        'SELECT instance, release_id, at FROM release_instances WHERE at >= $1 ORDER BY instance',
        [new Date(since).toISOString()],
      );
      return rows.map((row) => ({ instance: row.instance, releaseId: row.release_id, at: row.at }));
    },
    async forgetInstance(instance) {
      await pool.query('DELETE FROM release_instances WHERE instance = $1', [instance]);
    },
    /** Stops every listener still running (the lead store's close, before its pool ends). */
    async close() {
      await Promise.all([...listeners].map((listening) => listening.stop()));
      listeners.clear();
    },
  };
}
