// Above the online editor: the change set the edits go into, whether they are saved (drafts autosave), who else is in
// this document now, and "Submit for review" with what the set needs, in plain words, before and after it is sent;
// and, before submit, the misspelled words of any of its documents, which its publish would refuse.
import { Alert, Anchor, Badge, Button, Group, List, Paper, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ChangeView, ClaimKind, SetMisspelling } from '../../../contracts/content-api.ts';
import type { ApiBackend, Editing } from '../backend/api-backend.ts';
import { changeApi, REQUIRES_WORDS } from './change-api.ts';

/** Where the autosave stands for the open document. */
export type AutosaveState =
  | { kind: 'saved'; at: Date | null }
  | { kind: 'pending' }
  | { kind: 'saving' }
  | { kind: 'blocked' }
  | { kind: 'stale' }
  | { kind: 'failed'; status: number };

const time = (at: Date) =>
  at.toLocaleTimeString([], { hour: '2-digit', minute: '2-digit', second: '2-digit' });

function savedWords(state: AutosaveState): { text: string; color: string } {
  switch (state.kind) {
    case 'saved':
      return { text: state.at ? `Draft saved at ${time(state.at)}` : 'No unsaved changes', color: 'green.2' };
    case 'pending':
      return { text: 'Unsaved changes: saving when you pause', color: 'gray.2' };
    case 'saving':
      return { text: 'Saving…', color: 'gray.2' };
    case 'blocked':
      return { text: 'Not saved yet: fix the errors first', color: 'red.2' };
    case 'stale':
      return { text: 'Not saved: someone else saved first (see below)', color: 'red.2' };
    case 'failed':
      return { text: `Not saved (the server answered ${state.status}); will try again`, color: 'red.2' };
  }
}

const kindsIn = (words: ClaimKind[]) =>
  words.map((kind) => <List.Item key={kind}>{REQUIRES_WORDS[kind]}</List.Item>);

export function ChangeSetBar(p: {
  changeId: string;
  backend: ApiBackend;
  file?: string;
  autosave: AutosaveState;
  /** Moves at each page action (move, delete, add to a menu): the set changed without a save of the open document. */
  acted?: number;
}) {
  const [view, setView] = useState<ChangeView>();
  const [editing, setEditing] = useState<Editing[]>([]);
  const [problem, setProblem] = useState<string>();
  const [submitted, setSubmitted] = useState<ClaimKind[]>();
  const [misspelled, setMisspelled] = useState<SetMisspelling[]>([]);

  // The set as the API has it, again after each save or page action: what it changes and so what it needs.
  const savedAt = p.autosave.kind === 'saved' ? p.autosave.at?.getTime() : undefined;
  useEffect(() => {
    changeApi
      .show(p.changeId)
      .then(setView)
      .catch((error: unknown) => setProblem((error as Error).message));
    // Saved documents only, like the publish: a draft's own words show at their fields as the checks answer.
    changeApi
      .spelling(p.changeId)
      .then(setMisspelled)
      .catch(() => setMisspelled([]));
  }, [p.changeId, savedAt, p.acted]);
  useEffect(
    () => p.backend.onEditing((file, others) => (file === p.file ? setEditing(others) : undefined)),
    [p.backend, p.file],
  );
  useEffect(() => setEditing([]), [p.file]);

  const submit = async () => {
    setProblem(undefined);
    try {
      const answer = await changeApi.submit(p.changeId);
      setSubmitted(answer.requires);
      setView(await changeApi.show(p.changeId));
    } catch (error) {
      setProblem((error as Error).message);
    }
  };

  const saved = savedWords(p.autosave);
  const requires = view?.requires ?? [];
  const canSubmit = view !== undefined && view.state !== 'published' && view.documents.length > 0;
  return (
    <Paper withBorder p="xs" component="section" aria-label="Change set">
      <Stack gap={6}>
        <Group justify="space-between" wrap="wrap" gap="xs">
          <Text size="sm">
            Editing in <strong>{view?.title ?? '…'}</strong>
            {view?.state === 'in_review' ? ' (in review: a new edit needs approving again)' : ''}{' '}
            <Anchor href="./" size="sm" underline="always">
              Switch change set
            </Anchor>
          </Text>
          <Group gap="xs">
            <Badge color={saved.color} c="dark.9" data-testid="autosave" role="status">
              {saved.text}
            </Badge>
            <Button size="xs" onClick={() => void submit()} disabled={!canSubmit}>
              {view?.state === 'in_review' ? 'Submit again' : 'Submit for review'}
            </Button>
          </Group>
        </Group>
        {editing.length > 0 ? (
          <Alert color="yellow" p={6} role="status" data-testid="presence">
            Also editing this document now: {editing.map((e) => e.name).join(', ')}. Your saves and theirs are
            kept apart; a save on top of theirs shows you both, field by field.
          </Alert>
        ) : null}
        {submitted ? (
          <Alert color="green" p={6} role="status" data-testid="submitted">
            Submitted for review. It needs the approval of:
            <List size="sm">{kindsIn(submitted)}</List>
          </Alert>
        ) : canSubmit && requires.length > 0 ? (
          <Text size="xs" data-testid="requires">
            To be published, it needs the approval of{' '}
            {requires.map((kind) => REQUIRES_WORDS[kind]).join('; and ')}.
          </Text>
        ) : null}
        {misspelled.length > 0 && view?.state !== 'published' ? (
          <Alert color="orange" p={6} role="status" data-testid="misspelled">
            Publishing this change set is refused until these words are corrected:
            <List size="sm">
              {misspelled.map((m) => (
                <List.Item key={`${m.path} ${m.pointer} ${m.word}`}>
                  {m.path}: {m.message}
                </List.Item>
              ))}
            </List>
          </Alert>
        ) : null}
        {problem ? (
          <Alert color="red" p={6} role="alert">
            {problem}
          </Alert>
        ) : null}
      </Stack>
    </Paper>
  );
}
