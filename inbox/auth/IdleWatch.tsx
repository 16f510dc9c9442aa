// The idle watch of a signed-in inbox. A minute before the session's idle end it warns, where no one can miss it (an
// alert dialog over the screen that takes the focus), with "Stay signed in", which is activity. At the end it asks the
// server, which refuses the session: the app signs out and the sign-in screen says why (api.ts, idle.ts). Before
// warning it always asks the server (without moving the end), so activity in another tab of the same session counts.
// The member's own taps and key presses are activity too (at most one "I am here" every few seconds); the app's own
// refreshes never are. Near the absolute limit it says so, once: nothing can extend that.
import { Button, FocusTrap, Group, Overlay, Paper, Portal, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useId, useRef, useState, type KeyboardEvent } from 'react';
import { api, ApiError } from '../api.ts';
import { duration, knownEnds, onSessionClock, warningLead } from '../idle.ts';
import { useLapse } from '../session.ts';

interface Warning {
  kind: 'idle' | 'limit';
  /** When the session ends, in this browser's clock, and how long that was from the warning. */
  endsAt: number;
  secondsLeft: number;
}

/** "I am here": a request that is the member's own activity, and tells when the session now ends. */
const stillHere = () => void api.session().catch(() => undefined);

export function IdleWatch() {
  const [warning, setWarning] = useState<Warning>();
  const shown = useRef<Warning | undefined>(undefined);
  shown.current = warning;
  // The absolute limit's warning, once dismissed, is not shown again for that end.
  const dismissedEnd = useRef<number | undefined>(undefined);

  useEffect(() => {
    let timer: ReturnType<typeof setTimeout> | undefined;
    let lastActivity = 0;
    const at = (when: number, run: () => void) => {
      clearTimeout(timer);
      timer = setTimeout(run, Math.max(0, when - Date.now()));
    };
    /** Asks when the session ends, without moving it; a 401 signs the app out, saying why (api.ts). */
    const check = () =>
      void api.session(true).catch((error: unknown) => {
        if (!(error instanceof ApiError && error.status === 401)) at(Date.now() + 10_000, check);
      });
    /** From what is known: wait until the warning is due (and ask then), or warn until the end (and ask then). */
    const plan = () => {
      const ends = knownEnds();
      if (!ends) return check();
      const end = Math.min(ends.idleEndAt, ends.endAt);
      const kind = ends.endAt <= ends.idleEndAt ? 'limit' : 'idle';
      const now = Date.now();
      if (now < end - warningLead(ends.idleSeconds) - 1_000) {
        setWarning(undefined);
        return at(end - warningLead(ends.idleSeconds), check);
      }
      if (kind === 'idle' || dismissedEnd.current !== end)
        setWarning((current) =>
          current?.endsAt === end && current.kind === kind
            ? current
            : { kind, endsAt: end, secondsLeft: Math.round((end - now) / 1000) },
        );
      at(end + 500, check);
    };
    const onInput = () => {
      const ends = knownEnds();
      if (!ends || shown.current) return;
      if (Date.now() - lastActivity < Math.min(30_000, (ends.idleSeconds * 1000) / 6)) return;
      lastActivity = Date.now();
      stillHere();
    };
    const onVisible = () => document.visibilityState === 'visible' && check();
    const stop = onSessionClock(plan);
    plan();
    document.addEventListener('pointerdown', onInput, true);
    document.addEventListener('keydown', onInput, true);
    document.addEventListener('visibilitychange', onVisible);
    return () => {
      clearTimeout(timer);
      stop();
      document.removeEventListener('pointerdown', onInput, true);
      document.removeEventListener('keydown', onInput, true);
      document.removeEventListener('visibilitychange', onVisible);
    };
  }, []);

  const dismiss = useCallback(() => {
    if (shown.current?.kind === 'limit') {
      dismissedEnd.current = shown.current.endsAt;
      setWarning(undefined);
    } else stillHere();
  }, []);

  // Signed out already: the banner says so (desk/StaleBanner.tsx); a warning about what has happened would only hide it.
  const lapsed = useLapse() !== undefined;
  return warning && !lapsed ? <WarningDialog warning={warning} onDismiss={dismiss} /> : null;
}

function WarningDialog({ warning, onDismiss }: { warning: Warning; onDismiss: () => void }) {
  const titleId = useId();
  const textId = useId();
  const left = duration(warning.secondsLeft);
  const onKeyDown = (event: KeyboardEvent) => {
    if (event.key === 'Escape') onDismiss();
  };
  return (
    <Portal>
      <Overlay fixed backgroundOpacity={0.6} zIndex={400} onClick={onDismiss} />
      <FocusTrap active>
        <Paper
          role="alertdialog"
          aria-modal="true"
          aria-labelledby={titleId}
          aria-describedby={textId}
          className="inbox-idle-warning"
          shadow="xl"
          withBorder
          p="lg"
          onKeyDown={onKeyDown}
        >
          <Stack>
            <Title order={2} id={titleId}>
              {warning.kind === 'idle' ? 'Are you still there?' : 'Your session is ending'}
            </Title>
            <Text id={textId}>
              {warning.kind === 'idle'
                ? `You will be signed out in ${left} for your patients' privacy, because the inbox has not been used for a while.`
                : `You will be signed out in ${left}: for your patients' privacy, a session lasts a working day at most. ` +
                  'Finish what you are writing; you can sign in again right after.'}
            </Text>
            <Group justify="flex-end">
              <Button size="md" data-autofocus onClick={onDismiss}>
                {warning.kind === 'idle' ? 'Stay signed in' : 'I understand'}
              </Button>
            </Group>
          </Stack>
        </Paper>
      </FocusTrap>
    </Portal>
  );
}
