// The staff area's backend (/staff/edit/): the documents of one change set through the content API
// (/staff/api/content/changes/<id>/, contracts/content-api.ts), signed in with the staff session's cookie. A save goes
// into the set with the version it started from (the API keeps every save as a revision); a stale one (409) says who
// saved and when. A change by someone else is learnt by asking for the document's version every few seconds, as the
// files backend does; the same tick is the presence heartbeat, so the editor knows who else is in the document.
import type { ChangeDocumentAnswer, InvalidDocument, StaleSave } from '../../../contracts/content-api.ts';
import type { FieldError } from '../form/form-context.ts';
import type { ContentBackend, LoadedDocument, SaveOutcome, StudioFile } from './content-backend.ts';

const WATCH_MS = 3000;
/** The staff API answers a state-changing request only with this header (its cross-site check). */
const STAFF_HEADERS = { 'X-Staff-Request': '1' };

/** A member seen in the same document of the same set within the last 30 s. */
export type Editing = { email: string; name: string };

const when = (iso: string | null): string =>
  iso === null ? '' : ` at ${new Date(iso).toLocaleTimeString([], { hour: '2-digit', minute: '2-digit' })}`;

/** "maya@example.org (saved at 06:12)", or "the live site (published at 06:12)": whose the change was, in the form
 * the files backend gives ("Maya Chen (committed …)"), which the conflict banner shows as is. */
export const changedByWords = (stale: Pick<StaleSave, 'changedBy' | 'changedAt'>): string =>
  stale.changedBy
    ? `${stale.changedBy} (saved${when(stale.changedAt)})`
    : `the live site (published${when(stale.changedAt)})`;

export type ApiBackend = ContentBackend & {
  presence(file: string): Promise<Editing[]>;
  /** Told the others in a document at each heartbeat (the open document's watch beats every few seconds). */
  onEditing(listener: (file: string, editing: Editing[]) => void): () => void;
};

export function apiBackend(changeId: string, base = '/staff/api/content/changes'): ApiBackend {
  const set = `${base}/${encodeURIComponent(changeId)}`;
  // The versions this tab saved itself, per document: its own save is never "someone else's change".
  const own = new Map<string, Set<string>>();
  const listeners = new Set<(file: string, editing: Editing[]) => void>();
  const onEditing = (file: string, editing: Editing[]) =>
    listeners.forEach((listener) => listener(file, editing));
  const documentUrl = (file: string) => `${set}/documents?file=${encodeURIComponent(file)}`;
  const asText = (answer: ChangeDocumentAnswer): LoadedDocument => ({
    // The studio edits text: the API's document, as the API stores it (two-space JSON, a final newline).
    text: answer.document === null ? '' : `${JSON.stringify(answer.document, null, 2)}\n`,
    version: answer.version,
  });
  const presence = async (file: string): Promise<Editing[]> => {
    const response = await fetch(`${set}/presence?file=${encodeURIComponent(file)}`, {
      method: 'POST',
      headers: STAFF_HEADERS,
    });
    const editing = response.ok ? ((await response.json()) as { editing: Editing[] }).editing : [];
    onEditing(file, editing);
    return editing;
  };

  return {
    presence,
    onEditing: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
    list: async () => {
      const response = await fetch(`${set}/files`);
      if (!response.ok) throw new Error(`the documents could not be listed (${response.status})`);
      return ((await response.json()) as { files: StudioFile[] }).files;
    },
    load: async (name) => {
      const response = await fetch(documentUrl(name));
      if (!response.ok) throw new Error(`${name} could not be opened (${response.status})`);
      return asText((await response.json()) as ChangeDocumentAnswer);
    },
    save: async (name, document, baseVersion): Promise<SaveOutcome> => {
      // A new document starts from the API's version for "none" (its 404 says which); the studio says null.
      let base = baseVersion;
      if (base === null) {
        const probe = await fetch(documentUrl(name));
        base = ((await probe.json()) as { version: string }).version;
      }
      const response = await fetch(documentUrl(name), {
        method: 'PUT',
        headers: { ...STAFF_HEADERS, 'content-type': 'application/json' },
        body: JSON.stringify({ document, baseVersion: base }),
      });
      if (response.ok) {
        const { version } = (await response.json()) as { version: string };
        own.set(name, (own.get(name) ?? new Set()).add(version));
        return { kind: 'saved', version };
      }
      if (response.status === 409) {
        const stale = (await response.json()) as StaleSave;
        return { kind: 'stale', version: stale.version, changedBy: changedByWords(stale) };
      }
      if (response.status === 422)
        return {
          kind: 'invalid',
          // The API sends the validator's own codes (content/validate/problems.ts): the type the studio knows.
          errors: ((await response.json()) as InvalidDocument).errors as FieldError[],
        };
      return { kind: 'failed', status: response.status };
    },
    watch: (name, version, changed) => {
      let stopped = false;
      let told = version;
      const tick = () => {
        void presence(name).catch(() => undefined);
        void fetch(documentUrl(name))
          .then(async (r) => (r.ok ? ((await r.json()) as ChangeDocumentAnswer) : undefined))
          .then((now) => {
            if (stopped || !now || now.version === told) return;
            told = now.version;
            if (own.get(name)?.has(now.version)) return;
            // Who: the set's record of the document (GET /changes/<id>), in words.
            void fetch(set)
              .then(
                async (r) =>
                  (await r.json()) as {
                    documents: { path: string; updatedBy: string; updatedAt: string | null }[];
                  },
              )
              .then((view) => {
                const row = view.documents.find((d) => d.path === name);
                changed({
                  version: now.version,
                  changedBy: changedByWords({
                    changedBy: row?.updatedBy ?? null,
                    changedAt: row?.updatedAt ?? null,
                  }),
                });
              });
          })
          .catch(() => undefined); // The server restarting or a network blip: asked again at the next tick.
      };
      tick();
      const timer = setInterval(tick, WATCH_MS);
      return () => {
        stopped = true;
        clearInterval(timer);
      };
    },
  };
}
