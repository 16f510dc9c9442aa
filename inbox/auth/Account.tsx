// The signed-in staff member: their passkeys (add one for another device, remove one they no longer hold), where they
// are signed in (end a session on another device, or all of them), and sign out.
import { Alert, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconLogout } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { api } from '../api.ts';
import { useSession } from '../session.ts';
import { Passkeys } from './Passkeys.tsx';
import { Sessions } from './Sessions.tsx';
import { ShiftSwitch } from '../shift/ShiftSwitch.tsx';

const accountApi = getRouteApi('/account');

export function Account() {
  const { me, sessions } = accountApi.useLoaderData();
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [signOutProblem, setSignOutProblem] = useState<string>();
  const signOut = async () => {
    try {
      await api.signOut();
      await navigate({ to: '/sign-in', search: {}, replace: true });
      await refresh();
    } catch (error) {
      setSignOutProblem(error instanceof Error ? error.message : String(error));
    }
  };
  if (!me) return null;
  return (
    <Stack className="inbox-narrow">
      <Title order={1}>Account</Title>
      <Text>
        Signed in as <strong>{me.email}</strong>
        {me.admin ? ' (admin)' : ''}.
      </Text>
      <ShiftSwitch />
      <Passkeys passkeys={me.passkeys} />
      <Sessions loaded={sessions} />
      {signOutProblem && (
        <Alert color="red" role="alert">
          {signOutProblem}
        </Alert>
      )}
      <Group>
        <Button leftSection={<IconLogout aria-hidden />} color="gray" onClick={() => void signOut()}>
          Sign out
        </Button>
      </Group>
    </Stack>
  );
}
