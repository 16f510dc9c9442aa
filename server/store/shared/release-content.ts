// A release's content documents as one value: the hash both stores keep (ReleaseSummary.contentHash) and the server
// compares with the build in dist/, so equal content is equal whichever way it was read.
import { createHash } from 'node:crypto';
import type { ReleaseDocument } from '../contract/release-store.ts';

/** SHA-256 (hex) of the documents' paths and texts, sorted by path. */
export function contentHashOf(documents: readonly ReleaseDocument[]): string {
  const hash = createHash('sha256');
  for (const { path, text } of [...documents].sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0)))
    hash.update(`${path}\0${Buffer.byteLength(text)}\0${text}\0`);
  return hash.digest('hex');
}
