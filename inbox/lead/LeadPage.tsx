// One lead: every field under its label, where it came from, its status, notes and the history of its status.
import { Alert, Anchor, Button, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPhone } from '@tabler/icons-react';
import { Link } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { LEAD_STATUSES, STATUS_LABELS, isLeadStatus } from '../../server/store/contract/inbox.ts';
import { api, type Lead } from '../api.ts';
import { Received } from '../list/LeadCard.tsx';
import { leadRoute } from '../router.tsx';
import { History, Notes } from './Notes.tsx';

export function LeadPage() {
  const { id } = leadRoute.useParams();
  const [lead, setLead] = useState<Lead>();
  const [problem, setProblem] = useState<string>();
  const [statusProblem, setStatusProblem] = useState<string>();
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    let current = true;
    setLead(undefined);
    setProblem(undefined);
    api
      .lead(id)
      .then((found) => current && setLead(found))
      .catch((error: Error) => current && setProblem(error.message));
    return () => {
      current = false;
    };
  }, [id]);

  const back = (
    <Anchor component={Link} to="/" className="inbox-back">
      <IconArrowLeft size={18} aria-hidden /> All leads
    </Anchor>
  );
  if (problem)
    return (
      <Stack>
        {back}
        <Alert color="red" role="alert" title="This lead cannot be shown">
          {problem}
        </Alert>
      </Stack>
    );
  if (!lead) return <Text>Loading the lead…</Text>;

  // The server's tap-to-call href, on the field that holds the number it was made from.
  const callable = (value: string) => lead.tel !== null && value !== '' && value === lead.phone;
  const setStatus = async (value: string) => {
    if (!isLeadStatus(value) || value === lead.status) return;
    setSaving(true);
    setStatusProblem(undefined);
    try {
      setLead(await api.setStatus(lead.id, value));
    } catch (error) {
      setStatusProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };

  return (
    <Stack>
      {back}
      <div>
        <Title order={1}>{lead.name ?? 'No name given'}</Title>
        <Text c="dimmed">
          {lead.formName}, received <Received iso={lead.createdAt} />
        </Text>
      </div>
      {lead.tel && (
        <Button
          component="a"
          href={lead.tel}
          onClick={() => api.recordCall(lead.id)}
          size="xl"
          fullWidth
          hiddenFrom="sm"
          leftSection={<IconPhone aria-hidden />}
        >
          Call {lead.phone}
        </Button>
      )}
      <Paper withBorder p="md">
        <NativeSelect
          label="Status"
          description={saving ? 'Saving…' : undefined}
          value={lead.status}
          disabled={saving}
          onChange={(event) => void setStatus(event.currentTarget.value)}
          data={LEAD_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] }))}
        />
        {statusProblem && (
          <Alert color="red" role="alert" mt="sm">
            {statusProblem}
          </Alert>
        )}
      </Paper>
      <Paper withBorder p="md" component="section" aria-labelledby="lead-fields">
        <Title order={2} size="h3" id="lead-fields">
          What they sent
        </Title>
        <dl className="inbox-fields">
          {lead.fields.map((field) => (
            <div key={field.name}>
              <dt>{field.label}</dt>
              <dd>
                {callable(field.value) ? (
                  <Anchor href={lead.tel ?? undefined} onClick={() => api.recordCall(lead.id)}>
                    {field.value}
                  </Anchor>
                ) : (
                  field.value || (
                    <Text c="dimmed" component="span">
                      Not given
                    </Text>
                  )
                )}
              </dd>
            </div>
          ))}
          <div>
            <dt>Form</dt>
            <dd>{lead.formName}</dd>
          </div>
          <div>
            <dt>Sent from the page</dt>
            <dd>{lead.source}</dd>
          </div>
        </dl>
      </Paper>
      <Notes lead={lead} onAdded={(note) => setLead({ ...lead, notes: [...lead.notes, note] })} />
      <History lead={lead} />
    </Stack>
  );
}
