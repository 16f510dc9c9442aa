// Where the member is signed in: each session with what it was signed in from, when, and its last activity, this
// device marked; end one on another device (a lost phone, a shared computer), or all others at once.
import { Alert, Button, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { Suspense, use, useState } from 'react';
import type { SessionInfo, SessionsList } from '../../contracts/staff-api.ts';
import { api } from '../api.ts';
import { exactTime, timeAgo } from '../format.ts';
import type { Loaded } from '../loaded.ts';

export function Sessions({ loaded }: { loaded: Promise<Loaded<SessionsList>> }) {
  return (
    <Paper withBorder p="md">
      <Stack>
        <Title order={2} size="h3">
          Where you are signed in
        </Title>
        <Suspense fallback={<Text>Loading your sessions…</Text>}>
          <SessionList loaded={loaded} />
        </Suspense>
      </Stack>
    </Paper>
  );
}

function SessionList({ loaded }: { loaded: Promise<Loaded<SessionsList>> }) {
  const [initial] = useState(loaded);
  const first = use(initial);
  const [sessions, setSessions] = useState<SessionInfo[]>(first.ok ? first.value.sessions : []);
  const [problem, setProblem] = useState(first.ok ? undefined : first.problem);
  const [done, setDone] = useState<string>();
  const [busy, setBusy] = useState<string>();
  const act = async (key: string, work: () => Promise<SessionInfo[]>, said: string) => {
    setBusy(key);
    setProblem(undefined);
    try {
      setSessions(await work());
      setDone(said);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(undefined);
    }
  };
  const others = sessions.filter((session) => !session.current);
  const endOne = (id: string) =>
    act(
      id,
      async () => {
        await api.endSession(id);
        return sessions.filter((session) => session.id !== id);
      },
      'That session was ended: that device is signed out.',
    );
  const endOthers = () =>
    act(
      'others',
      async () => {
        await api.endOtherSessions();
        return sessions.filter((session) => session.current);
      },
      'Every other session was ended: only this device is signed in.',
    );
  return (
    <>
      <List aria-label="Your sessions" spacing="sm">
        {sessions.map((session) => (
          <List.Item key={session.id}>
            <Group gap="xs" wrap="wrap">
              <Text>
                <strong>{session.device ?? 'A browser'}</strong>, signed in {exactTime(session.createdAt)};
                last active {timeAgo(session.lastActiveAt)}
              </Text>
              {session.current ? (
                <Text component="span" fw={700}>
                  (This device)
                </Text>
              ) : (
                <Button
                  size="xs"
                  variant="default"
                  loading={busy === session.id}
                  onClick={() => void endOne(session.id)}
                >
                  End this session
                </Button>
              )}
            </Group>
          </List.Item>
        ))}
      </List>
      {done && <Text role="status">{done}</Text>}
      {problem && (
        <Alert color="red" role="alert" title="The sessions were not changed">
          {problem}
        </Alert>
      )}
      {others.length > 0 && (
        <Group>
          <Button variant="default" loading={busy === 'others'} onClick={() => void endOthers()}>
            Sign out everywhere else
          </Button>
        </Group>
      )}
    </>
  );
}
