// Sign in with a passkey (discoverable: no e-mail to type), then back to where the staff member was going. After the
// app was signed out for being away (or at the session's time limit), it says so first, plainly.
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import { duration, forgetSignedOutReason, signedOutReason, type SignedOutReason } from '../idle.ts';
import { signIn } from '../passkeys.ts';
import { useSession } from '../session.ts';
import { HostNotice } from './HostNotice.tsx';
import { useCeremony } from './use-ceremony.ts';

const signInApi = getRouteApi('/sign-in');

export function SignIn() {
  const { next } = signInApi.useSearch();
  const navigate = useNavigate();
  const { refresh } = useSession();
  const done = useCallback(async () => {
    forgetSignedOutReason();
    await refresh();
    await navigate({ to: next ?? '/', replace: true });
  }, [navigate, next, refresh]);
  const { busy, problem, run } = useCeremony(signIn, done);
  return (
    <Paper className="inbox-narrow" withBorder p="lg">
      <Stack>
        <SignedOutNotice reason={signedOutReason()} />
        <Title order={1}>Sign in</Title>
        <Text>Sign in to the admissions inbox with the passkey on this device.</Text>
        <HostNotice />
        {problem && (
          <Alert color="red" role="alert" title="Not signed in">
            {problem}
          </Alert>
        )}
        <Button size="lg" leftSection={<IconKey aria-hidden />} loading={busy} onClick={() => void run()}>
          Sign in with a passkey
        </Button>
        <Text size="sm" c="dimmed">
          No passkey yet? Ask an admin for an invitation link.
        </Text>
      </Stack>
    </Paper>
  );
}

/** Why the inbox was signed out, when it was not the member's doing (the next version makes this a full banner). */
function SignedOutNotice({ reason }: { reason: SignedOutReason | undefined }) {
  if (!reason) return null;
  return (
    <Alert color="orange" variant="light" role="alert" title="You were signed out">
      {reason.kind === 'idle'
        ? `You were signed out after ${duration(reason.idleSeconds)} without activity, to protect your patients' privacy. `
        : "Your session reached its time limit, so you were signed out to protect your patients' privacy. "}
      Sign in again to continue.
    </Alert>
  );
}
