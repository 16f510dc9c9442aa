// What both release stores do alike (contract/release-store.ts): a file's bytes hashed by SHA-256, the key they are
// stored under once; a release's content hash, equal for equal documents whichever store holds them; and the short
// batches its bytes are written in; their rows as the contract gives them.
import { createHash } from 'node:crypto';
import { setImmediate as yieldToEvents } from 'node:timers/promises';
import type { NewRelease, ReleaseDocument, ReleaseEvent, ReleaseSummary } from '../contract/release-store.ts';
import type { ReleaseEventRow, ReleaseRow } from '../contract/rows.ts';

/** SHA-256 (hex) of `bytes`: the key a file's bytes are stored under, shared by every release that holds them. */
export const blobHash = (bytes: Buffer | string): string => createHash('sha256').update(bytes).digest('hex');

/**
 * SHA-256 (hex) of the documents, sorted by path, each as its path, a NUL, its text and a NUL: a path or a text
 * cannot run into the next one (neither holds a NUL in a checkout's JSON), so two sets hash alike only when equal.
 */
export function contentHashOf(documents: readonly ReleaseDocument[]): string {
  const hash = createHash('sha256');
  for (const { path, text } of [...documents].sort((a, b) =>
    a.path < b.path ? -1 : a.path > b.path ? 1 : 0,
  ))
    hash.update(path).update('\0').update(text).update('\0');
  return hash.digest('hex');
}

/** Refuses a release that names a path twice, or an empty one: a release is one file (one document) per path. */
export function checkUniquePaths(kind: 'file' | 'document', paths: readonly string[]): void {
  const seen = new Set<string>();
  for (const path of paths) {
    if (path === '') throw new Error(`a release's ${kind} needs a path`);
    if (seen.has(path)) throw new Error(`a release cannot hold the ${kind} ${path} twice`);
    seen.add(path);
  }
}

/** Bytes per blob transaction: long enough to write quickly, short enough (a few ms) that a lead waits little. */
export const BLOB_BATCH_BYTES = 1 << 20;
/** Files per blob transaction or per page read, whatever their size. */
export const BLOB_BATCH_FILES = 256;

/** Splits blobs into transactions of at most BLOB_BATCH_BYTES (one bigger file alone) and BLOB_BATCH_FILES. */
export function* blobBatches<T extends { bytes: Buffer }>(blobs: readonly T[]): Generator<T[]> {
  let batch: T[] = [];
  let size = 0;
  for (const blob of blobs) {
    if (
      batch.length > 0 &&
      (size + blob.bytes.length > BLOB_BATCH_BYTES || batch.length >= BLOB_BATCH_FILES)
    ) {
      yield batch;
      batch = [];
      size = 0;
    }
    batch.push(blob);
    size += blob.bytes.length;
  }
  if (batch.length > 0) yield batch;
}

/** A file or document to store: its bytes, under their hash. */
export interface StoredBlob {
  path: string;
  bytes: Buffer;
  hash: string;
}

/**
 * Writes a release's bytes, files and documents alike, through `write` a short batch at a time (each hashed just
 * before, so that neither hashing tens of MB nor writing them holds the event loop), and resolves with the paths and
 * hashes for the release's lists. Refuses a path named twice before anything is written.
 */
export async function storeBlobs(
  release: NewRelease,
  write: (batch: readonly StoredBlob[]) => unknown,
): Promise<{ files: StoredBlob[]; documents: StoredBlob[] }> {
  checkUniquePaths(
    'file',
    release.files.map((file) => file.path),
  );
  checkUniquePaths(
    'document',
    release.documents.map((document) => document.path),
  );
  const files = release.files.map(({ path, bytes }) => ({ path, bytes, hash: '' }));
  const documents = release.documents.map(({ path, text }) => ({
    path,
    bytes: Buffer.from(text, 'utf8'),
    hash: '',
  }));
  for (const batch of blobBatches([...files, ...documents])) {
    for (const blob of batch) blob.hash = blobHash(blob.bytes);
    await write(batch);
    await yieldToEvents();
  }
  return { files, documents };
}

/** A release row as the contract gives it. */
export const toSummary = (row: ReleaseRow): ReleaseSummary => ({
  id: row.id,
  at: row.at,
  author: row.author,
  message: row.message,
  codeVersion: row.code_version,
  contentHash: row.content_hash,
});

/** A release event row as the contract gives it. */
export const toEvent = (row: ReleaseEventRow): ReleaseEvent => ({
  seq: row.seq,
  at: row.at,
  kind: row.kind,
  releaseId: row.release_id,
  previousId: row.previous_id,
  actor: row.actor,
});
