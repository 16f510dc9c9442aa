// A passkey ceremony as a screen runs it: busy while it runs, and a clear message when it fails.
import { useCallback, useEffect, useState } from 'react';
import { ApiError } from '../api.ts';
import { cancelCeremony, ceremonyProblem } from '../passkeys.ts';

export function useCeremony<T>(ceremony: () => Promise<T>, done: (result: T) => void | Promise<void>) {
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  useEffect(() => () => cancelCeremony(), []);
  const run = useCallback(async () => {
    setBusy(true);
    setProblem(undefined);
    try {
      await done(await ceremony());
    } catch (error) {
      setProblem(
        error instanceof ApiError
          ? error.message
          : (ceremonyProblem(error) ?? 'The passkey could not be used. Try again.'),
      );
    } finally {
      setBusy(false);
    }
  }, [ceremony, done]);
  return { busy, problem, run };
}
