// What a call came to: reached, no answer, voicemail, wrong number, not a fit, or asked to call back (with the time,
// which becomes the lead's new due time). The status follows the outcome on the server; "Saved" says it was kept, until
// the next edit. The form is @mantine/form's, its values the API's own (CallRequest), so its `validate` is the
// server's rules themselves (contracts/desk-rules.ts), shown under the field before sending.
import { Alert, Button, Group, NativeSelect, Paper, Text, TextInput, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { callFormRules } from '../../contracts/desk-rules.ts';
import {
  CALL_OUTCOMES,
  OUTCOME_LABELS,
  isCallOutcome,
  type CallOutcome,
  type LeadDetail,
} from '../../contracts/staff-api.ts';
import { api, ApiError } from '../api.ts';

/** A `datetime-local` value (the member's own clock) as an instant; '' when empty or unreadable. */
const instantOf = (local: string): string => {
  const time = local ? new Date(local).getTime() : NaN;
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
};

/** An instant as a `datetime-local` value in the member's own clock; '' for none. */
const localOf = (iso: string): string => {
  const time = Date.parse(iso);
  if (Number.isNaN(time)) return '';
  const at = new Date(time);
  return new Date(time - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

/** Now plus `minutes`, to the minute, as an instant. */
const instantIn = (minutes: number): string => {
  const at = new Date(Date.now() + minutes * 60_000);
  at.setSeconds(0, 0);
  return at.toISOString();
};

interface CallValues {
  outcome: CallOutcome | '';
  /** ISO; '' unless the outcome is "asked to call back". */
  callbackAt: string;
}

export function CallOutcomeForm({
  lead,
  onSaved,
}: {
  lead: LeadDetail;
  onSaved: (lead: LeadDetail) => void;
}) {
  const [saved, setSaved] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useForm<CallValues>({
    mode: 'controlled',
    initialValues: { outcome: '', callbackAt: '' },
    validate: callFormRules,
    // The next edit after a save: "Saved" is about what was sent, not what is being written now.
    onValuesChange: () => setSaved(undefined),
  });

  const submit = async ({ outcome, callbackAt }: CallValues) => {
    if (!isCallOutcome(outcome)) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const after = await api.logCall(
        lead.id,
        outcome === 'callback' ? { outcome, callbackAt } : { outcome },
      );
      onSaved(after);
      form.reset();
      setSaved(`Saved: ${OUTCOME_LABELS[outcome]}.`);
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error));
    } finally {
      setBusy(false);
    }
  };

  const { outcome, callbackAt } = form.getValues();
  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={form.onSubmit((values) => void submit(values))}
      aria-labelledby="call-outcome"
    >
      <Title order={2} size="h3" id="call-outcome">
        Log a call
      </Title>
      <Text size="sm" c="dimmed">
        {lead.attempts === 0
          ? 'No call logged yet.'
          : `${lead.attempts} ${lead.attempts === 1 ? 'call' : 'calls'} logged.`}
      </Text>
      <NativeSelect
        label="What came of it"
        {...form.getInputProps('outcome')}
        onChange={(event) => {
          const value = event.currentTarget.value;
          const chosen = isCallOutcome(value) ? value : '';
          // "Asked to call back" starts at ten minutes from now; any other outcome takes no time.
          form.setValues({
            outcome: chosen,
            callbackAt: chosen === 'callback' ? callbackAt || instantIn(10) : '',
          });
        }}
        data={[
          { value: '', label: 'Choose…' },
          ...CALL_OUTCOMES.map((value) => ({ value, label: OUTCOME_LABELS[value] })),
        ]}
      />
      {outcome === 'callback' && (
        <TextInput
          type="datetime-local"
          label="Call back at"
          description="This becomes the lead's new due time."
          value={localOf(callbackAt)}
          error={form.errors.callbackAt}
          onChange={(event) => form.setFieldValue('callbackAt', instantOf(event.currentTarget.value))}
          mt="sm"
        />
      )}
      <Group mt="sm">
        <Button type="submit" loading={busy}>
          Save outcome
        </Button>
        <Text role="status" size="sm" c="teal">
          {saved}
        </Text>
      </Group>
      {problem && (
        <Alert color="red" role="alert" mt="sm">
          {problem}
        </Alert>
      )}
    </Paper>
  );
}
