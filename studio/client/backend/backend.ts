// Which backend this editor runs on, decided once at start: under the staff area (/staff/edit/?change=<id>) the
// change set's documents through the content API; anywhere else (`npm run studio`) the checkout's files. One editor,
// two backends: nothing else in the editor asks which.
import { apiBackend } from './api-backend.ts';
import type { ContentBackend } from './content-backend.ts';
import { filesBackend } from './files-backend.ts';

/** The staff area serves the editor under this path (server/staff/staff-area.ts). */
export const ONLINE_PATH = '/staff/edit/';

export const online = typeof location !== 'undefined' && location.pathname.startsWith(ONLINE_PATH);
/** The change set the online editor works in; null until one is picked or made. */
export const changeId = online ? new URLSearchParams(location.search).get('change') : null;

export const onlineBackend = changeId === null ? undefined : apiBackend(changeId);
export const backend: ContentBackend = onlineBackend ?? filesBackend;
