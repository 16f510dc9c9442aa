// The invitation link's screen: the token comes in the address's fragment (never sent to a server in a Referer or
// a log) and is taken out of the address at once, then used to register this device's passkey.
import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { enrol } from '../passkeys.ts';
import { useSession } from '../session.ts';
import { HostNotice } from './HostNotice.tsx';
import { useCeremony } from './use-ceremony.ts';

function takeToken(): string {
  const token = new URLSearchParams(location.hash.slice(1)).get('token') ?? location.hash.slice(1);
  if (location.hash) history.replaceState(history.state, '', location.pathname + location.search);
  return token;
}

export function Enrol() {
  const [token] = useState(takeToken);
  const navigate = useNavigate();
  const { refresh } = useSession();
  const ceremony = useCallback(() => enrol(token), [token]);
  const done = useCallback(async () => {
    await refresh();
    await navigate({ to: '/', replace: true });
  }, [navigate, refresh]);
  const { busy, problem, run } = useCeremony(ceremony, done);
  return (
    <Paper className="inbox-narrow" withBorder p="lg">
      <Stack>
        <Title order={1}>Set up your passkey</Title>
        {token ? (
          <>
            <Text>
              You were invited to the admissions inbox. Create a passkey on this device: you will use it, with
              your fingerprint, face or screen lock, to sign in. No password is needed.
            </Text>
            <HostNotice />
            {problem && (
              <Alert color="red" role="alert" title="The passkey was not set up">
                {problem}
              </Alert>
            )}
            <Button size="lg" leftSection={<IconKey aria-hidden />} loading={busy} onClick={() => void run()}>
              Create a passkey
            </Button>
          </>
        ) : (
          <Alert color="red" role="alert" title="No invitation here">
            This address holds no invitation. Open the full link you were sent, or ask an admin for a new one.
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
