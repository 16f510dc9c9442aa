// Where the editor's documents live, behind one small interface: the local studio reads and writes the checkout's
// files (files-backend.ts); the staff area's editor will implement the same four calls over the change-set API
// (/staff/api/content/), so nothing else in the editor knows which it runs on.
import type { FieldError } from '../form/form-context.ts';

/** A document in the list; `broken`: its text is not valid JSON, with the parser's message and position. */
export type StudioFile = {
  file: string;
  kind: string;
  path?: string;
  title: string;
  broken?: { message: string; line: number; column: number };
};

/** A document as stored, and the version a save must start from. */
export type LoadedDocument = { text: string; version: string };

/** Who changed a document since it was opened, in words ("Maya Chen (committed …)", "changed on disk at 05:12:40"). */
export type ChangedBy = { version: string | null; changedBy: string };

export type SaveOutcome =
  | { kind: 'saved'; version: string }
  /** The stored document is no longer the version this save started from: nothing was written. */
  | ({ kind: 'stale' } & ChangedBy)
  | { kind: 'invalid'; errors: FieldError[] }
  | { kind: 'failed'; status: number };

export interface ContentBackend {
  list(): Promise<StudioFile[]>;
  load(name: string): Promise<LoadedDocument>;
  /** `baseVersion`: the version the edit started from; null for a document that must not exist yet. */
  save(name: string, document: unknown, baseVersion: string | null): Promise<SaveOutcome>;
  /** Calls `changed` when the stored document is no longer at `version`; returns the way to stop. */
  watch(name: string, version: string, changed: (change: ChangedBy) => void): () => void;
}
