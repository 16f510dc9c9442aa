// Online, a draft saves itself into the change set once typing pauses and the validator has answered with no error
// (the API would refuse it: 422), never over someone else's save (a stale save stops it until the editor decides).
// Every save is a revision the API keeps, so saving often loses nothing.
import { useEffect, useRef, useState } from 'react';
import type { SaveOutcome } from '../backend/content-backend.ts';
import type { AutosaveState } from './ChangeSetBar.tsx';

/** The pause after the last keystroke before a draft is saved. */
export const AUTOSAVE_MS = 1500;
/** After a failed save (the network, the server restarting), the next try. */
const RETRY_MS = 10_000;

type Args = {
  enabled: boolean;
  doc: unknown;
  dirty: boolean;
  /** The validator has answered for this very draft. */
  checked: boolean;
  blocking: number;
  stale: boolean;
  save: () => Promise<SaveOutcome | undefined>;
};

export function useAutosave({ enabled, doc, dirty, checked, blocking, stale, save }: Args): AutosaveState {
  const [state, setState] = useState<AutosaveState>({ kind: 'saved', at: null });
  const saving = useRef(false);
  const [round, setRound] = useState(0);
  const saveRef = useRef(save);
  saveRef.current = save;

  useEffect(() => {
    if (!enabled) return;
    if (stale) return setState({ kind: 'stale' });
    if (!dirty) return setState((now) => (now.kind === 'saved' ? now : { kind: 'saved', at: new Date() }));
    if (checked && blocking > 0) return setState({ kind: 'blocked' });
    setState((now) => (now.kind === 'failed' ? now : { kind: 'pending' }));
    if (!checked) return;
    const timer = setTimeout(
      () => {
        if (saving.current) return;
        saving.current = true;
        setState({ kind: 'saving' });
        void saveRef
          .current()
          .then((outcome) => {
            if (!outcome) return;
            if (outcome.kind === 'saved') setState({ kind: 'saved', at: new Date() });
            else if (outcome.kind === 'stale') setState({ kind: 'stale' });
            else if (outcome.kind === 'invalid') setState({ kind: 'blocked' });
            else setState({ kind: 'failed', status: outcome.status });
          })
          .catch(() => setState({ kind: 'failed', status: 0 }))
          .finally(() => {
            saving.current = false;
            setRound((n) => n + 1);
          });
      },
      state.kind === 'failed' ? RETRY_MS : AUTOSAVE_MS,
    );
    return () => clearTimeout(timer);
    // `state` is read only for the retry delay (re-running on it would loop); `round` moves when a save ends, so edits
    // typed while it was on its way are saved next.
  }, [enabled, doc, dirty, checked, blocking, stale, round]);
  return state;
}
