// What a call came to: reached, no answer, voicemail, wrong number, not a fit, or asked to call back (with the time,
// which becomes the lead's new due time). The status follows the outcome on the server; "Saved" says it was kept. The
// rules are contracts/desk-rules.ts, the server's own, shown under the field before sending (@mantine/form's
// `validate` takes these same functions once the package is added: see the decision record).
import { Alert, Button, Group, NativeSelect, Paper, Text, TextInput, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { callbackRule, outcomeRule } from '../../contracts/desk-rules.ts';
import {
  CALL_OUTCOMES,
  OUTCOME_LABELS,
  type CallOutcome,
  type LeadDetail,
} from '../../contracts/staff-api.ts';
import { api, ApiError } from '../api.ts';

/** A `datetime-local` value (the member's own clock) as an instant; '' when empty or unreadable. */
const instantOf = (local: string): string => {
  const time = local ? new Date(local).getTime() : NaN;
  return Number.isNaN(time) ? '' : new Date(time).toISOString();
};

/** Now plus `minutes`, as a `datetime-local` value in the member's own clock. */
const localIn = (minutes: number): string => {
  const at = new Date(Date.now() + minutes * 60_000);
  at.setSeconds(0, 0);
  return new Date(at.getTime() - at.getTimezoneOffset() * 60_000).toISOString().slice(0, 16);
};

export function CallOutcomeForm({
  lead,
  onSaved,
}: {
  lead: LeadDetail;
  onSaved: (lead: LeadDetail) => void;
}) {
  const [outcome, setOutcome] = useState<CallOutcome | ''>('');
  const [callbackAt, setCallbackAt] = useState('');
  const [errors, setErrors] = useState<{ outcome?: string; callbackAt?: string }>({});
  const [saved, setSaved] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const chosen = outcome === '' ? undefined : outcome;
    const at = instantOf(callbackAt);
    const found = {
      outcome: outcomeRule(chosen) ?? undefined,
      callbackAt: callbackRule(chosen === 'callback' ? at : undefined, chosen, Date.now()) ?? undefined,
    };
    setErrors(found);
    if (found.outcome || found.callbackAt || !chosen) return;
    setBusy(true);
    setProblem(undefined);
    try {
      const after = await api.logCall(
        lead.id,
        chosen === 'callback' ? { outcome: chosen, callbackAt: at } : { outcome: chosen },
      );
      onSaved(after);
      setSaved(`Saved: ${OUTCOME_LABELS[chosen]}.`);
      setOutcome('');
      setCallbackAt('');
    } catch (error) {
      setProblem(error instanceof ApiError ? (error.serverMessage ?? error.message) : String(error));
    } finally {
      setBusy(false);
    }
  };

  return (
    <Paper
      withBorder
      p="md"
      component="form"
      onSubmit={(event) => void submit(event)}
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
        value={outcome}
        error={errors.outcome}
        onChange={(event) => {
          const value = event.currentTarget.value as CallOutcome | '';
          setOutcome(value);
          setSaved(undefined);
          if (value === 'callback' && !callbackAt) setCallbackAt(localIn(10));
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
          value={callbackAt}
          error={errors.callbackAt}
          onChange={(event) => setCallbackAt(event.currentTarget.value)}
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
