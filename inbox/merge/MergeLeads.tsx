// A lead's merges: "Merge into this one" for each other lead of the same person (after a confirmation), and links both
// ways once merged: the other is closed and kept, its notes and calls on its own page (POST /leads/:id/merge).
import { Alert, Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { STATUS_LABELS, type LeadDetail } from '../../contracts/staff-api.ts';
import { adminApi } from '../admin/admin-api.ts';
import { leadPath } from '../api.ts';
import { timeAgo } from '../format.ts';

export function MergeLeads({
  lead,
  now,
  onMerged,
}: {
  lead: LeadDetail;
  now: number;
  onMerged: (kept: LeadDetail) => void;
}) {
  const [asking, setAsking] = useState<string>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [done, setDone] = useState<string>();
  const mergeable = lead.relatedLeads.filter((other) => !lead.mergedFrom.includes(other.id));
  const merge = async (from: string) => {
    setBusy(true);
    setProblem(undefined);
    try {
      onMerged(await adminApi.merge(lead.id, from));
      setAsking(undefined);
      setDone('Merged: the other request is closed and linked here.');
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  if (lead.mergedInto !== null)
    return (
      <Alert color="gray" title="Merged" mt="sm">
        This request was merged into{' '}
        <Anchor component={Link} to={leadPath(lead.mergedInto)}>
          another request of the same person
        </Anchor>
        , where it is worked. It is kept here, closed, with its notes and calls.
      </Alert>
    );
  if (mergeable.length === 0 && lead.mergedFrom.length === 0) return null;
  return (
    <Stack gap="xs" mt="sm">
      {lead.mergedFrom.length > 0 && (
        <Text size="sm">
          Merged into this one:{' '}
          {lead.mergedFrom.map((id, n) => (
            <span key={id}>
              {n > 0 && ', '}
              <Anchor component={Link} to={leadPath(id)}>
                request {n + 1}
              </Anchor>
            </span>
          ))}{' '}
          (their notes and calls are on their pages).
        </Text>
      )}
      {mergeable.map((other) => (
        <Group key={other.id} gap="xs">
          <Text size="sm">
            {lead.relatedLeads.length > 1
              ? `The one of ${timeAgo(other.createdAt, now)} (${STATUS_LABELS[other.status]}):`
              : 'The same person?'}
          </Text>
          {asking === other.id ? (
            <>
              <Button size="xs" color="red" loading={busy} onClick={() => void merge(other.id)}>
                Merge it into this one
              </Button>
              <Button size="xs" variant="default" onClick={() => setAsking(undefined)}>
                Keep both
              </Button>
            </>
          ) : (
            <Button size="xs" variant="default" onClick={() => setAsking(other.id)}>
              Merge into this one…
            </Button>
          )}
        </Group>
      ))}
      {asking && (
        <Text size="sm" c="dimmed">
          The other request is closed and kept, linked to this one; its notes and calls stay on its page.
        </Text>
      )}
      {done && (
        <Text size="sm" role="status">
          {done}
        </Text>
      )}
      {problem && (
        <Alert color="red" role="alert">
          {problem}
        </Alert>
      )}
    </Stack>
  );
}
