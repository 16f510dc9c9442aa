// Change sets as both stores keep them (contract/change-store.ts): the rows, and rows to values. One place, so the two
// stores read alike.
import type { ClaimKind } from '../../../content/claims/keyword.ts';
import type {
  ChangeApproval,
  ChangeComment,
  ChangeDocument,
  ChangeRevision,
  ChangeSet,
  ChangeState,
  PreviewLink,
  SaveAllOutcome,
  SaveOutcome,
  ScheduleState,
} from '../contract/change-store.ts';

/** One save's outcome from saveAll's (`save` is saveAll of one document, in both stores). */
export const oneOf = (outcome: SaveAllOutcome): SaveOutcome =>
  outcome.saved
    ? { saved: true, version: outcome.versions[0] ?? 0 }
    : { saved: false, current: outcome.current };

/** Refuses a saveAll naming one path twice: which of the two would be the copy is not a question to answer here. */
export function distinct(saves: readonly { path: string }[]): void {
  if (new Set(saves.map((save) => save.path)).size !== saves.length)
    throw new Error('saveAll: each document at most once');
}

export interface ChangeSetRow {
  id: string;
  title: string;
  author: string;
  state: ChangeState;
  base_release: number;
  requires: string;
  published_release: number | null;
  created_at: number;
  updated_at: number;
  schedule_at: number | null;
  schedule_by: string | null;
  schedule_state: ScheduleState | null;
  schedule_error: string | null;
  schedule_lease: number | null;
}

export interface ChangeDocumentRow {
  change_id: string;
  path: string;
  base_text: string | null;
  text: string | null;
  version: number;
  updated_by: string;
  updated_at: number;
}

export interface ChangeRevisionRow {
  path: string;
  version: number;
  actor: string;
  at: number;
  text: string | null;
}

export interface ChangeApprovalRow {
  actor: string;
  at: number;
  content_hash: string;
  covers: string;
  name: string | null;
  credential: string | null;
}

export interface ChangeCommentRow {
  actor: string;
  at: number;
  path: string | null;
  pointer: string | null;
  text: string;
}

export interface PreviewLinkRow {
  change_id: string;
  created_at: number;
  expires_at: number;
  revoked_at: number | null;
}

const kinds = (json: string): ClaimKind[] => JSON.parse(json) as ClaimKind[];

export const toChangeSet = (row: ChangeSetRow): ChangeSet => ({
  id: row.id,
  title: row.title,
  author: row.author,
  state: row.state,
  baseRelease: Number(row.base_release),
  requires: kinds(row.requires),
  publishedRelease: row.published_release === null ? null : Number(row.published_release),
  schedule:
    row.schedule_at === null || row.schedule_state === null
      ? null
      : {
          at: Number(row.schedule_at),
          by: row.schedule_by ?? '',
          state: row.schedule_state,
          error: row.schedule_error,
        },
  createdAt: Number(row.created_at),
  updatedAt: Number(row.updated_at),
});

export const toChangeDocument = (row: ChangeDocumentRow): ChangeDocument => ({
  path: row.path,
  baseText: row.base_text,
  text: row.text,
  version: Number(row.version),
  updatedBy: row.updated_by,
  updatedAt: Number(row.updated_at),
});

export const toRevision = (row: ChangeRevisionRow): ChangeRevision => ({
  path: row.path,
  version: Number(row.version),
  by: row.actor,
  at: Number(row.at),
  text: row.text,
});

export const toApproval = (row: ChangeApprovalRow): ChangeApproval => ({
  by: row.actor,
  at: Number(row.at),
  contentHash: row.content_hash,
  covers: kinds(row.covers),
  name: row.name,
  credential: row.credential,
});

export const toComment = (row: ChangeCommentRow): ChangeComment => ({
  by: row.actor,
  at: Number(row.at),
  path: row.path,
  pointer: row.pointer,
  text: row.text,
});

export const toPreviewLink = (row: PreviewLinkRow): PreviewLink => ({
  changeId: row.change_id,
  createdAt: Number(row.created_at),
  expiresAt: Number(row.expires_at),
  revokedAt: row.revoked_at === null ? null : Number(row.revoked_at),
});
