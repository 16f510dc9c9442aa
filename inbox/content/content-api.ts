// The content API (/staff/api/content/, server/content-staff/content-routes.ts) as the staff app calls it: change sets
// listed and shown, submitted, approved, published and scheduled, preview links made and revoked. Bodies and answers
// are typed by contracts/content-api.ts; the list's rows are typed here, as the server answers them.
import {
  CONTENT_API_PATH,
  type Approved,
  type ChangeState,
  type ChangesRequested,
  type ChangeView,
  type HistoryAnswer,
  type Restored,
  type RolledBack,
  type CommentRequest,
  type DocumentDiff,
  type PreviewLinkAnswer,
  type PreviewLinkRequest,
  type PublishedChange,
  type ScheduleRequest,
  type Submitted,
} from '../../contracts/content-api.ts';
import { request } from '../api.ts';

/** GET /content/changes: one row per change set. */
export interface ChangeRow {
  id: string;
  title: string;
  author: string;
  state: ChangeState;
  updatedAt: string | null;
}

const at = (id: string, rest = '') => `${CONTENT_API_PATH}/${encodeURIComponent(id)}${rest}`;

export const contentApi = {
  changes: () => request<{ changes: ChangeRow[] }>(CONTENT_API_PATH).then((answer) => answer.changes),
  change: (id: string) => request<ChangeView>(at(id)),
  diff: (id: string) =>
    request<{ documents: DocumentDiff[] }>(at(id, '/diff')).then((answer) => answer.documents),
  comment: (id: string, comment: CommentRequest) =>
    request<unknown>(at(id, '/comments'), { method: 'POST', body: comment }),
  requestChanges: (id: string, text: string) =>
    request<ChangesRequested>(at(id, '/request-changes'), { method: 'POST', body: { text } }),
  pages: () => request<HistoryAnswer>('/content/history').then((answer) => answer.pages),
  history: (file: string) =>
    request<HistoryAnswer>(`/content/history?file=${encodeURIComponent(file)}`).then(
      (answer) => answer.versions,
    ),
  restore: (release: number, file: string) =>
    request<Restored>(`/content/history/${release}/restore`, { method: 'POST', body: { file } }),
  rollback: (release: number) =>
    request<RolledBack>(`/content/releases/${release}/rollback`, { method: 'POST', body: {} }),
  submit: (id: string) => request<Submitted>(at(id, '/submit'), { method: 'POST', body: {} }),
  approve: (id: string) => request<Approved>(at(id, '/approve'), { method: 'POST', body: {} }),
  publish: (id: string) => request<PublishedChange>(at(id, '/publish'), { method: 'POST', body: {} }),
  schedule: (id: string, when: Date) =>
    request<unknown>(at(id, '/schedule'), {
      method: 'POST',
      body: { at: when.toISOString() } satisfies ScheduleRequest,
    }),
  cancelSchedule: (id: string) => request<{ schedule: null }>(at(id, '/schedule'), { method: 'DELETE' }),
  createPreviewLink: (id: string, hours: number) =>
    request<PreviewLinkAnswer>(at(id, '/preview-links'), {
      method: 'POST',
      body: { hours } satisfies PreviewLinkRequest,
    }),
  revokePreviewLinks: (id: string) =>
    request<{ revoked: number }>(at(id, '/preview-links'), { method: 'DELETE' }),
};

/** The editor (studio online, another screen of /staff/) opened on a change set: the set's id in the address. */
export const editorHref = (id: string): string => `/staff/edit/?change=${encodeURIComponent(id)}`;

/** A change set's page in the staff app. */
export const changePath = (id: string): string => `/changes/${encodeURIComponent(id)}`;

/** A release's page as visitors saw it (served by the content API, behind the session). */
export const versionHref = (release: number, file: string): string =>
  `/staff/api/content/history/${release}/view?file=${encodeURIComponent(file)}`;

/** A page of a change set rendered as visitors see it now (`before`) or as the set would make it (`after`). */
export const renderHref = (id: string, file: string, side: 'before' | 'after'): string =>
  `/staff/api${at(id, `/render?file=${encodeURIComponent(file)}&side=${side}`)}`;
