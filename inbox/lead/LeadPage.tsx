// One lead: every field under its label, where it came from, its status, notes and the history of its status. Its
// route's loader asks for it. Not current (signed out, or the stream lost), it says as of when, and stops ticking.
import { Alert, Anchor, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { IconArrowLeft, IconPhone } from '@tabler/icons-react';
import { getRouteApi, Link } from '@tanstack/react-router';
import { Suspense, use, useState, type ReactNode } from 'react';
import { LEAD_STATUSES, STATUS_LABELS, isLeadStatus, type LeadDetail } from '../../contracts/staff-api.ts';
import { api } from '../api.ts';
import type { Loaded } from '../loaded.ts';
import { Received, RelatedLeads } from '../list/LeadCard.tsx';
import { useNewLeads } from '../list/use-new-leads.ts';
import { CallOutcomeForm } from '../desk/CallOutcome.tsx';
import { ClaimButton } from '../desk/ClaimButton.tsx';
import { useNow } from '../desk/use-now.ts';
import { clockTime, useCurrency } from '../desk/currency.ts';
import { dueLine } from '../format.ts';
import { History, Notes } from './Notes.tsx';
import { MergeLeads } from '../merge/MergeLeads.tsx';

const leadApi = getRouteApi('/leads/$id');

export function LeadPage() {
  const { id } = leadApi.useParams();
  const { lead } = leadApi.useLoaderData();
  const back = (
    <Anchor component={Link} to="/" className="inbox-back">
      <IconArrowLeft size={18} aria-hidden /> All leads
    </Anchor>
  );
  return (
    <Suspense key={id} fallback={<Text>Loading the lead…</Text>}>
      <ShownLead found={lead} back={back} />
    </Suspense>
  );
}

function ShownLead({ found, back }: { found: Promise<Loaded<LeadDetail>>; back: ReactNode }) {
  const [initial] = useState(found);
  const loaded = use(initial);
  const [lead, setLead] = useState(loaded.ok ? loaded.value : undefined);
  const [statusProblem, setStatusProblem] = useState<string>();
  const [saving, setSaving] = useState(false);
  const ticking = useNow();
  const currency = useCurrency();
  const stale = currency.state !== 'live';
  const now = stale ? currency.asOf : ticking;
  // Changed by anyone (a claim, a call, a note, its status): shown afresh, asked on the app's own (not a read of theirs).
  useNewLeads(
    () => undefined,
    (changed) => {
      if (changed === lead?.id) void api.lead(changed, { background: true }).then(setLead, () => undefined);
    },
  );

  if (!loaded.ok || !lead)
    return (
      <Stack>
        {back}
        <Alert color="red" role="alert" title="This lead cannot be shown">
          {loaded.ok ? null : loaded.problem}
        </Alert>
      </Stack>
    );

  const due = dueLine(lead, now);
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
    <Stack data-stale={stale || undefined} className="inbox-lead-page">
      {back}
      <div>
        <Title order={1}>{lead.name ?? 'No name given'}</Title>
        <Text c="dimmed">
          {lead.formName}, received <Received iso={lead.createdAt} now={now} stale={stale} />
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
      <Paper withBorder p="md" component="section" aria-label="Who is calling, and when it is due">
        <Group justify="space-between" gap="sm">
          <Text fw={700} c={due?.overdue ? 'red' : undefined} className="inbox-lead-due">
            {due ? due.text : 'Nothing due'}
            {stale && ` (at ${clockTime(now)}, not current)`}
          </Text>
          <Group gap="sm">
            <ClaimButton lead={lead} onChanged={setLead} />
          </Group>
        </Group>
        <RelatedLeads lead={lead} now={now} stale={stale} />
        <MergeLeads lead={lead} now={now} onMerged={setLead} />
      </Paper>
      <CallOutcomeForm lead={lead} onSaved={setLead} />
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
