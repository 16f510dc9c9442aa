// The member's passkeys: what each was added from, when, and when last used; add one on this device, or remove one
// (never the last: without a passkey no one can sign in). Adding or removing asks for the passkey again when the last
// check of this session is over 5 minutes old (passkeys.ts).
import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useCallback, useState } from 'react';
import type { PasskeyInfo } from '../../contracts/staff-api.ts';
import { exactTime } from '../format.ts';
import { addPasskey, removePasskey } from '../passkeys.ts';
import { useSession } from '../session.ts';
import { useCeremony } from './use-ceremony.ts';

export function Passkeys({ passkeys }: { passkeys: PasskeyInfo[] }) {
  const { refresh } = useSession();
  const [done, setDone] = useState<string>();
  const [removing, setRemoving] = useState<string>();
  const added = useCallback(async () => {
    setDone('The new passkey was added.');
    await refresh();
  }, [refresh]);
  const adding = useCeremony(addPasskey, added);
  const removal = useCeremony(
    useCallback(() => removePasskey(removing ?? ''), [removing]),
    useCallback(async () => {
      setRemoving(undefined);
      setDone('The passkey was removed: it no longer signs you in.');
      await refresh();
    }, [refresh]),
  );
  const problem = adding.problem ?? removal.problem;
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h3">
          Passkeys
        </Title>
        <List aria-label="Your passkeys" spacing="sm">
          {passkeys.map((passkey, n) => (
            <List.Item key={passkey.id}>
              <Stack gap={4}>
                <Text>
                  <strong>{passkey.name ? `Added from ${passkey.name}` : `Passkey ${n + 1}`}</strong>,{' '}
                  {exactTime(passkey.createdAt)}
                  {passkey.lastUsedAt ? `; last used ${exactTime(passkey.lastUsedAt)}` : '; not used yet'}
                </Text>
                {passkeys.length > 1 && removing !== passkey.id && (
                  <Group>
                    <Button size="xs" variant="default" onClick={() => setRemoving(passkey.id)}>
                      Remove…
                    </Button>
                  </Group>
                )}
                {removing === passkey.id && (
                  <Group>
                    <Text size="sm">It will no longer sign you in.</Text>
                    <Button size="xs" color="red" loading={removal.busy} onClick={() => void removal.run()}>
                      Remove this passkey
                    </Button>
                    <Button size="xs" variant="default" onClick={() => setRemoving(undefined)}>
                      Keep it
                    </Button>
                  </Group>
                )}
              </Stack>
            </List.Item>
          ))}
        </List>
        {passkeys.length === 1 && (
          <Text size="sm" c="dimmed">
            Your only passkey cannot be removed: add another one first.
          </Text>
        )}
        {done && <Text role="status">{done}</Text>}
        {problem && (
          <Alert color="red" role="alert" title="The passkeys were not changed">
            {problem}
          </Alert>
        )}
        <Group>
          <Button
            leftSection={<IconKey aria-hidden />}
            loading={adding.busy}
            onClick={() => void adding.run()}
            variant="default"
          >
            Add a passkey on this device
          </Button>
        </Group>
        <Text size="sm" c="dimmed">
          Adding or removing a passkey asks for your passkey again if you have not used it in the last 5
          minutes.
        </Text>
      </Stack>
    </Paper>
  );
}
