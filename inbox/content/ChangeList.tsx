// The change sets (issue #28), for editorial staff: title, author, state and last change, newest first; each opens its
// page (ChangePage.tsx). Admissions-only members never reach it: the header shows no link, and the screen says so.
import { Alert, Anchor, Badge, Group, Paper, Stack, Table, Text, Title } from '@mantine/core';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Suspense, use } from 'react';
import { CONTENT_ROLES, holdsAny } from '../../contracts/staff-api.ts';
import { exactTime } from '../format.ts';
import type { Loaded } from '../loaded.ts';
import { useSession } from '../session.ts';
import { changePath, type ChangeRow } from './content-api.ts';
import { STATE_WORDS } from './words.ts';

const changesApi = getRouteApi('/changes');

export function ChangeList() {
  const { me } = useSession();
  const { changes } = changesApi.useLoaderData();
  if (!me || !holdsAny(me.roles, CONTENT_ROLES) || !changes) return <EditorialOnly />;
  return (
    <Stack>
      <Group justify="space-between">
        <Title order={1}>Change sets</Title>
        <Anchor component={Link} to="/history">
          Page history
        </Anchor>
      </Group>
      <Suspense fallback={<Text>Loading the change sets…</Text>}>
        <ShownChanges found={changes} />
      </Suspense>
    </Stack>
  );
}

export function EditorialOnly() {
  return (
    <Alert color="red" role="alert" title="Editorial staff only">
      Change sets are for editors, reviewers, publishers and admins.
    </Alert>
  );
}

function ShownChanges({ found }: { found: Promise<Loaded<ChangeRow[]>> }) {
  const loaded = use(found);
  if (!loaded.ok)
    return (
      <Alert color="red" role="alert" title="The change sets could not be loaded">
        {loaded.problem}
      </Alert>
    );
  return <ChangeTable rows={loaded.value} />;
}

/** The rows, newest change first (the list is short: every set ever made, one line each). */
export function ChangeTable({ rows }: { rows: readonly ChangeRow[] }) {
  if (rows.length === 0) return <Text>No change sets yet. Editors start one in the editor.</Text>;
  const sorted = [...rows].sort((a, b) => (b.updatedAt ?? '').localeCompare(a.updatedAt ?? ''));
  return (
    <Paper withBorder>
      <Table.ScrollContainer minWidth={0}>
        <Table verticalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Title</Table.Th>
              <Table.Th>State</Table.Th>
              <Table.Th visibleFrom="sm">Author</Table.Th>
              <Table.Th visibleFrom="sm">Last change</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {sorted.map((row) => (
              <Table.Tr key={row.id}>
                <Table.Td>
                  <Anchor component={Link} to={changePath(row.id)}>
                    {row.title}
                  </Anchor>
                </Table.Td>
                <Table.Td>
                  <Badge variant="outline" color="gray" className="inbox-badge">
                    {STATE_WORDS[row.state]}
                  </Badge>
                </Table.Td>
                <Table.Td visibleFrom="sm">{row.author}</Table.Td>
                <Table.Td visibleFrom="sm">{row.updatedAt ? exactTime(row.updatedAt) : ''}</Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Table.ScrollContainer>
    </Paper>
  );
}
