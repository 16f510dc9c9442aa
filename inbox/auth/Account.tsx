// The signed-in staff member: their passkeys (add another, for a second device), and sign out.
import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey, IconLogout } from '@tabler/icons-react';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useCallback, useState } from 'react';
import { api } from '../api.ts';
import { exactTime } from '../format.ts';
import { addPasskey } from '../passkeys.ts';
import { useSession } from '../session.ts';
import { useCeremony } from './use-ceremony.ts';

const accountApi = getRouteApi('/account');

export function Account() {
  const { me } = accountApi.useLoaderData();
  const { refresh } = useSession();
  const navigate = useNavigate();
  const [added, setAdded] = useState(false);
  const done = useCallback(async () => {
    setAdded(true);
    await refresh();
  }, [refresh]);
  const { busy, problem, run } = useCeremony(addPasskey, done);
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
      <Paper withBorder p="md">
        <Stack>
          <Title order={2} size="h3">
            Passkeys
          </Title>
          <List>
            {me.passkeys.map((passkey) => (
              <List.Item key={passkey.id}>
                Added {exactTime(passkey.createdAt)}
                {passkey.lastUsedAt ? `, last used ${exactTime(passkey.lastUsedAt)}` : ', not used yet'}
              </List.Item>
            ))}
          </List>
          {added && <Text role="status">The new passkey was added.</Text>}
          {problem && (
            <Alert color="red" role="alert" title="No passkey was added">
              {problem}
            </Alert>
          )}
          <Group>
            <Button
              leftSection={<IconKey aria-hidden />}
              loading={busy}
              onClick={() => void run()}
              variant="default"
            >
              Add a passkey on this device
            </Button>
          </Group>
        </Stack>
      </Paper>
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
