// The audit log, for admins: who did what, when, to which lead; newest first, a page at a time. Its route's loader asks
// for the first page (for admins only).
import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Suspense, use, useState } from 'react';
import type { AuditLogEntry, AuditPage } from '../../contracts/staff-api.ts';
import { api, leadPath } from '../api.ts';
import { exactTime } from '../format.ts';
import type { Loaded } from '../loaded.ts';
import { useSession } from '../session.ts';

const auditApi = getRouteApi('/audit');

export function AuditLog() {
  const { me } = useSession();
  const { firstPage } = auditApi.useLoaderData();
  if (!me?.admin || !firstPage)
    return (
      <Alert color="red" role="alert" title="Admins only">
        Only admins can read the audit log.
      </Alert>
    );
  return (
    <Stack>
      <Title order={1}>Audit log</Title>
      {/* While the first page loads: the table, empty. */}
      <Suspense fallback={<Entries rows={[]} />}>
        <ShownEntries firstPage={firstPage} />
      </Suspense>
    </Stack>
  );
}

function ShownEntries({ firstPage }: { firstPage: Promise<Loaded<AuditPage>> }) {
  const [initial] = useState(firstPage);
  const loaded = use(initial);
  const [rows, setRows] = useState<AuditLogEntry[]>(loaded.ok ? loaded.value.rows : []);
  const [next, setNext] = useState<string | null>(
    loaded.ok && loaded.value.next !== null ? String(loaded.value.next) : null,
  );
  const [loading, setLoading] = useState(false);
  const [problem, setProblem] = useState<string | undefined>(loaded.ok ? undefined : loaded.problem);

  const older = async (before: string) => {
    setLoading(true);
    try {
      const page = await api.audit(before);
      setRows((shown) => [...shown, ...page.rows]);
      setNext(page.next === null ? null : String(page.next));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setLoading(false);
    }
  };

  return (
    <>
      {problem && (
        <Alert color="red" role="alert" title="The audit log could not be loaded">
          {problem}
        </Alert>
      )}
      <Entries rows={rows} />
      {!loading && rows.length === 0 && <Text>The log is empty.</Text>}
      {next && (
        <Group justify="center">
          <Button variant="default" loading={loading} onClick={() => void older(next)}>
            Older entries
          </Button>
        </Group>
      )}
    </>
  );
}

function Entries({ rows }: { rows: AuditLogEntry[] }) {
  return (
    <div className="inbox-scroll" tabIndex={0} role="region" aria-label="Audit log entries">
      <Table striped>
        <Table.Caption>
          Newest first. Every sign-in, read and change in the inbox, and every command-line read.
        </Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>#</Table.Th>
            <Table.Th>When</Table.Th>
            <Table.Th>Who</Table.Th>
            <Table.Th>What</Table.Th>
            <Table.Th>Lead</Table.Th>
            <Table.Th>Detail</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row) => (
            <Table.Tr key={row.seq}>
              <Table.Td>{row.seq}</Table.Td>
              <Table.Td>
                <time dateTime={row.at}>{exactTime(row.at)}</time>
              </Table.Td>
              <Table.Td>{row.actor}</Table.Td>
              <Table.Td>{row.action}</Table.Td>
              <Table.Td>
                {row.leadId && (
                  <Anchor component={Link} to={leadPath(row.leadId)}>
                    {row.leadId}
                  </Anchor>
                )}
              </Table.Td>
              <Table.Td>{row.detail}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
