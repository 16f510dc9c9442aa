// The audit log, for admins: who did what, when, to which lead; newest first, a page at a time.
import { Alert, Anchor, Button, Group, Stack, Table, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useCallback, useEffect, useState } from 'react';
import type { AuditLogEntry } from '../../contracts/staff-api.ts';
import { api, leadPath } from '../api.ts';
import { exactTime } from '../format.ts';
import { useSession } from '../session.tsx';

export function AuditLog() {
  const { me } = useSession();
  const [rows, setRows] = useState<AuditLogEntry[]>([]);
  const [next, setNext] = useState<string | null>(null);
  const [loading, setLoading] = useState(true);
  const [problem, setProblem] = useState<string>();

  const load = useCallback(async (before?: string) => {
    setLoading(true);
    try {
      const page = await api.audit(before);
      setRows((shown) => (before ? [...shown, ...page.rows] : page.rows));
      setNext(page.next === null ? null : String(page.next));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setLoading(false);
    }
  }, []);
  useEffect(() => {
    if (me?.admin) void load();
  }, [load, me?.admin]);

  if (!me?.admin)
    return (
      <Alert color="red" role="alert" title="Admins only">
        Only admins can read the audit log.
      </Alert>
    );
  return (
    <Stack>
      <Title order={1}>Audit log</Title>
      {problem && (
        <Alert color="red" role="alert" title="The audit log could not be loaded">
          {problem}
        </Alert>
      )}
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
      {!loading && rows.length === 0 && <Text>The log is empty.</Text>}
      {next && (
        <Group justify="center">
          <Button variant="default" loading={loading} onClick={() => void load(next)}>
            Older entries
          </Button>
        </Group>
      )}
    </Stack>
  );
}
