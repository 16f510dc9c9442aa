// Saving the open document through its backend: a save names the version the edits started from; a stale one opens
// the merge (use-disk-sync.ts), an invalid one says so. Online, drafts also save themselves (online/use-autosave.ts),
// reported by the change set's bar rather than a notice.
import type { Dispatch, SetStateAction } from 'react';
import { backend, onlineBackend } from '../backend/backend.ts';
import type { SaveOutcome } from '../backend/content-backend.ts';
import { useAutosave } from '../online/use-autosave.ts';
import type { useChecks } from './use-checks.ts';
import type { Opened, useDocument } from './use-document.ts';

type Args = {
  file: string | undefined;
  opened: Opened | undefined;
  document: ReturnType<typeof useDocument>;
  checks: ReturnType<typeof useChecks>;
  stale: boolean;
  refused: (changedBy: string) => void;
  setNotice: (notice: string) => void;
  setOpened: Dispatch<SetStateAction<Opened | undefined>>;
  closeDialog: () => void;
  refreshFiles: () => void;
};

export function useSave(a: Args) {
  const { file, opened, document } = a;
  /** `quiet`: an autosave, which the change set's bar reports instead of a notice. */
  const save = async (quiet = false): Promise<SaveOutcome | undefined> => {
    const latest = document.latest();
    if (!file || !opened || latest === undefined) return undefined;
    a.closeDialog();
    const outcome = await backend.save(file, latest, opened.isNew ? null : document.base().version);
    if (outcome.kind === 'stale') a.refused(outcome.changedBy);
    else if (outcome.kind === 'invalid') a.setNotice('The file was not saved: it has errors.');
    else if (outcome.kind === 'failed') {
      if (!quiet) a.setNotice(`The file was not saved (${outcome.status}).`);
    } else {
      const { version } = outcome;
      document.markSaved(file, latest);
      // What was saved is the new base (as a value: formatting on disk does not matter to a merge).
      const text = JSON.stringify(latest);
      a.setOpened((o) => (o ? { ...o, text, version, isNew: false, keep: true } : o));
      if (!quiet) a.setNotice('Saved.');
      a.refreshFiles();
    }
    return outcome;
  };
  const autosave = useAutosave({
    enabled: onlineBackend !== undefined,
    doc: document.doc,
    dirty: document.dirty || Boolean(opened?.isNew),
    checked: a.checks.checkedDoc === document.doc && document.doc !== undefined,
    blocking: a.checks.blocking,
    stale: a.stale,
    save: () => save(true),
  });
  return { save, autosave };
}
