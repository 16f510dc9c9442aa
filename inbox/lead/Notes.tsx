// A lead's notes (add one; each with its author and time) and the history of its status changes. The note form is
// @mantine/form's, validated by the server's own rule (contracts/desk-rules.ts); "Saved" shows until the next edit.
import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { noteFormRules } from '../../contracts/desk-rules.ts';
import { STATUS_LABELS, type LeadDetail, type LeadNote } from '../../contracts/staff-api.ts';
import { api } from '../api.ts';
import { exactTime } from '../format.ts';

export function Notes({ lead, onAdded }: { lead: LeadDetail; onAdded: (note: LeadNote) => void }) {
  const [saving, setSaving] = useState(false);
  const [saved, setSaved] = useState(false);
  const [problem, setProblem] = useState<string>();
  const form = useForm({
    mode: 'controlled',
    initialValues: { text: '' },
    validate: noteFormRules,
    onValuesChange: () => setSaved(false),
  });
  const add = async ({ text }: { text: string }) => {
    setSaving(true);
    setProblem(undefined);
    try {
      onAdded(await api.addNote(lead.id, text.trim()));
      form.reset();
      setSaved(true);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setSaving(false);
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="lead-notes">
      <Stack>
        <Title order={2} size="h3" id="lead-notes">
          Notes
        </Title>
        {lead.notes.length === 0 && <Text c="dimmed">No notes yet.</Text>}
        {lead.notes.length > 0 && (
          <ol className="inbox-notes">
            {lead.notes.map((note) => (
              <li key={note.id}>
                <Text size="sm" c="dimmed">
                  {note.author}, <time dateTime={note.createdAt}>{exactTime(note.createdAt)}</time>
                </Text>
                <Text className="inbox-note-text">{note.text}</Text>
              </li>
            ))}
          </ol>
        )}
        <form onSubmit={form.onSubmit((values) => void add(values))}>
          <Textarea label="New note" autosize minRows={3} {...form.getInputProps('text')} />
          {problem && (
            <Alert color="red" role="alert" mt="sm">
              {problem}
            </Alert>
          )}
          <Group mt="sm">
            <Button type="submit" loading={saving}>
              Add note
            </Button>
            <Text role="status" size="sm" c="teal">
              {saved ? 'Saved.' : ''}
            </Text>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}

export function History({ lead }: { lead: LeadDetail }) {
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="lead-history">
      <Title order={2} size="h3" id="lead-history" mb="sm">
        Status history
      </Title>
      {lead.history.length === 0 ? (
        <Text c="dimmed">The status has not changed since the lead arrived.</Text>
      ) : (
        <ol className="inbox-notes">
          {lead.history.map((change) => (
            <li key={`${change.at}-${change.to}`}>
              <Text>
                {STATUS_LABELS[change.from]} → {STATUS_LABELS[change.to]}
              </Text>
              <Text size="sm" c="dimmed">
                {change.author}, <time dateTime={change.at}>{exactTime(change.at)}</time>
              </Text>
            </li>
          ))}
        </ol>
      )}
    </Paper>
  );
}
