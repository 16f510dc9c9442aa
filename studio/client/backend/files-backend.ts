// The local studio's backend: the checkout's files, through the studio server (/studio-api/). A change on disk is
// learnt by asking for the file's version every few seconds (a poll is one small request; a file watcher would
// need a push channel for one browser tab).
import type {
  ChangedBy,
  ContentBackend,
  LoadedDocument,
  SaveOutcome,
  StudioFile,
} from './content-backend.ts';
import type { FieldError } from '../form/form-context.ts';

const WATCH_MS = 2000;

const json = async <T>(response: Response): Promise<T> => (await response.json()) as T;
const query = (name: string) => `name=${encodeURIComponent(name)}`;

export const filesBackend: ContentBackend = {
  list: async () => json<StudioFile[]>(await fetch('/studio-api/files')),
  load: async (name) => {
    const response = await fetch(`/studio-api/file?${query(name)}`);
    if (!response.ok) throw new Error(`${name} could not be opened (${response.status})`);
    return json<LoadedDocument>(response);
  },
  save: async (name, document, baseVersion): Promise<SaveOutcome> => {
    const response = await fetch(`/studio-api/file?${query(name)}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ document, baseVersion }),
    });
    if (response.ok) return { kind: 'saved', ...(await json<{ version: string }>(response)) };
    if (response.status === 409) return { kind: 'stale', ...(await json<ChangedBy>(response)) };
    if (response.status === 422)
      return { kind: 'invalid', ...(await json<{ errors: FieldError[] }>(response)) };
    return { kind: 'failed', status: response.status };
  },
  watch: (name, version, changed) => {
    let stopped = false;
    let told = version;
    const timer = setInterval(() => {
      void fetch(`/studio-api/version?${query(name)}&known=${encodeURIComponent(told)}`)
        .then((r) => json<ChangedBy>(r))
        .then((now) => {
          if (stopped || (now.version ?? '') === told) return;
          told = now.version ?? '';
          changed(now);
        })
        .catch(() => undefined); // The studio server restarting: asked again at the next tick.
    }, WATCH_MS);
    return () => {
      stopped = true;
      clearInterval(timer);
    };
  },
};
