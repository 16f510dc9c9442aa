// The online editor's first screen: the change set to work in. Edits never reach the live site directly: they go
// into a named change set, which is reviewed and published from the staff area. Open one still in draft or review,
// or start one with a title that says what it changes.
import { Alert, Anchor, Button, Container, Group, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import { ChangeApiError, changeApi, type ChangeSummary } from './change-api.ts';

const STATE_WORDS: Record<string, string> = {
  draft: 'Draft',
  in_review: 'In review',
  published: 'Published',
};
const open = (id: string) => location.assign(`?change=${encodeURIComponent(id)}`);

export function ChangeSetPicker() {
  const [changes, setChanges] = useState<ChangeSummary[]>();
  const [problem, setProblem] = useState<string>();
  const [signedOut, setSignedOut] = useState(false);
  const [title, setTitle] = useState('');
  const [busy, setBusy] = useState(false);

  useEffect(() => {
    changeApi
      .list()
      .then((all) => setChanges(all.filter((c) => c.state !== 'published')))
      .catch((error: unknown) => {
        if (error instanceof ChangeApiError && error.status === 401) setSignedOut(true);
        else setProblem((error as Error).message);
      });
  }, []);

  const start = async () => {
    setBusy(true);
    try {
      open((await changeApi.create(title.trim())).id);
    } catch (error) {
      setProblem((error as Error).message);
      setBusy(false);
    }
  };

  return (
    <Container component="main" size="md" py="lg">
      <Stack gap="md">
        <Group justify="space-between">
          <Title order={1} size="h3">
            Edit the site
          </Title>
          <Anchor href="/staff/">Back to the staff area</Anchor>
        </Group>
        <Text>
          Your edits go into a change set: nothing reaches the live site until it is reviewed and published.
          Start one for what you are about to change, or carry on with one below.
        </Text>
        {signedOut ? (
          <Alert color="yellow" role="status">
            You are signed out.{' '}
            <Anchor href="/staff/" underline="always">
              Sign in
            </Anchor>
            , then come back to the editor.
          </Alert>
        ) : null}
        {problem ? (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        ) : null}
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (title.trim()) void start();
          }}
        >
          <Group align="flex-end">
            <TextInput
              label="New change set"
              placeholder="Fentanyl page: detox duration"
              value={title}
              onChange={(event) => setTitle(event.currentTarget.value)}
              maxLength={200}
              style={{ flex: 1 }}
            />
            <Button type="submit" disabled={!title.trim() || busy}>
              Start editing
            </Button>
          </Group>
        </form>
        {changes && changes.length > 0 ? (
          <Table striped>
            <Table.Caption>Change sets not published yet</Table.Caption>
            <Table.Thead>
              <Table.Tr>
                <Table.Th>Title</Table.Th>
                <Table.Th>Started by</Table.Th>
                <Table.Th>State</Table.Th>
              </Table.Tr>
            </Table.Thead>
            <Table.Tbody>
              {changes.map((change) => (
                <Table.Tr key={change.id}>
                  <Table.Td>
                    <Anchor href={`?change=${encodeURIComponent(change.id)}`}>{change.title}</Anchor>
                  </Table.Td>
                  <Table.Td>{change.author}</Table.Td>
                  <Table.Td>{STATE_WORDS[change.state] ?? change.state}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        ) : changes ? (
          <Text>No change set is open: start one above.</Text>
        ) : null}
      </Stack>
    </Container>
  );
}
