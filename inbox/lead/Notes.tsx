// A lead's notes (add one; each with its author and time) and the history of its status changes.
import { Alert, Button, Group, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import { useState, type FormEvent } from 'react';
import { STATUS_LABELS } from '../../server/store/contract/inbox.ts';
import { api, type Lead, type LeadNote } from '../api.ts';
import { exactTime } from '../format.ts';

export function Notes({ lead, onAdded }: { lead: Lead; onAdded: (note: LeadNote) => void }) {
  const [text, setText] = useState('');
  const [saving, setSaving] = useState(false);
  const [problem, setProblem] = useState<string>();
  const add = async (event: FormEvent) => {
    event.preventDefault();
    if (!text.trim()) return;
    setSaving(true);
    setProblem(undefined);
    try {
      onAdded(await api.addNote(lead.id, text.trim()));
      setText('');
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
        <form onSubmit={(event) => void add(event)}>
          <Textarea
            label="New note"
            autosize
            minRows={3}
            value={text}
            onChange={(event) => setText(event.currentTarget.value)}
          />
          {problem && (
            <Alert color="red" role="alert" mt="sm">
              {problem}
            </Alert>
          )}
          <Group mt="sm">
            <Button type="submit" loading={saving} disabled={!text.trim()}>
              Add note
            </Button>
          </Group>
        </form>
      </Stack>
    </Paper>
  );
}

export function History({ lead }: { lead: Lead }) {
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
