// The review of a change set (issue #28, item 4): per document, each field that changed, named in the content model's
// words, marked with whose approval it needs (a medical claim, contact details), its value before and after; the page
// rendered before (the live release's HTML) and after (the real renderer over the set), in place (RenderedSides.tsx) or
// each in a tab of its own; a comment on a field; and, for reviewers, "Request changes", which sends the set back to
// its editors with the reason.
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Text,
  Textarea,
  Title,
} from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ChangeView, DocumentDiff, FieldChange } from '../../contracts/content-api.ts';
import { contentApi, renderHref } from './content-api.ts';
import { RenderedSides } from './RenderedSides.tsx';
import { KIND_WORDS, WHO_APPROVES } from './words.ts';

const CHANGE_WORDS: Readonly<Record<FieldChange['change'], string>> = {
  changed: 'Changed',
  added: 'Added',
  removed: 'Removed',
  moved: 'Moved',
};

const problemOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

/** Loads the diff, and shows it with the acts on it; `reload` shows the change set afresh after an act. */
export function Review({
  change,
  reviewer,
  reload,
}: {
  change: ChangeView;
  reviewer: boolean;
  reload: () => Promise<void>;
}) {
  const [documents, setDocuments] = useState<DocumentDiff[]>();
  const [problem, setProblem] = useState<string>();
  // Asked again whenever the set's content moves (its documents' versions).
  const versions = change.documents.map((document) => document.version).join(',');
  useEffect(() => {
    let current = true;
    contentApi.diff(change.id).then(
      (found) => current && setDocuments(found),
      (error: unknown) => current && setProblem(problemOf(error)),
    );
    return () => {
      current = false;
    };
  }, [change.id, versions]);
  return (
    <Stack component="section" aria-labelledby="review-title">
      <Title order={2} id="review-title">
        What changed
      </Title>
      {problem && (
        <Alert color="red" role="alert" title="The changes could not be loaded">
          {problem}
        </Alert>
      )}
      {!documents && !problem && <Text>Loading the changes…</Text>}
      {documents?.map((document) => (
        <DocumentChanges key={document.path} id={change.id} document={document} onComment={reload} />
      ))}
      {reviewer && change.state === 'in_review' && <RequestChanges id={change.id} onSent={reload} />}
    </Stack>
  );
}

/** One document's changed fields (drawn from the diff given, asking nothing until a comment is sent). */
export function DocumentChanges({
  id,
  document,
  onComment,
}: {
  id: string;
  document: DocumentDiff;
  onComment: () => Promise<void>;
}) {
  return (
    <Paper withBorder p="sm">
      <Stack gap="sm">
        <Title order={3} size="h4">
          {document.path}
          {document.created ? ' (new page)' : document.deleted ? ' (deleted)' : ''}
        </Title>
        {document.path.startsWith('pages/') && (
          <Group gap="md">
            {!document.created && (
              <Anchor href={renderHref(id, document.path, 'before')} target="_blank" rel="noreferrer">
                The page before (live now)
              </Anchor>
            )}
            {!document.deleted && (
              <Anchor href={renderHref(id, document.path, 'after')} target="_blank" rel="noreferrer">
                The page after (with this change set)
              </Anchor>
            )}
          </Group>
        )}
        {document.summary && <Text fw={700}>{document.summary}.</Text>}
        {document.path.startsWith('pages/') && (
          <RenderedSides
            id={id}
            file={document.path}
            sides={document.created ? ['after'] : document.deleted ? ['before'] : ['before', 'after']}
          />
        )}
        {document.changes.length === 0 && !document.summary && <Text>No field changed.</Text>}
        {document.changes.map((field) => (
          <FieldDiff
            key={`${field.change}${field.pointer}`}
            id={id}
            path={document.path}
            field={field}
            onComment={onComment}
          />
        ))}
      </Stack>
    </Paper>
  );
}

function FieldDiff({
  id,
  path,
  field,
  onComment,
}: {
  id: string;
  path: string;
  field: FieldChange;
  onComment: () => Promise<void>;
}) {
  const [commenting, setCommenting] = useState(false);
  const claims = field.kinds.filter((kind) => kind !== 'other');
  return (
    <Stack gap={4} className="review-field">
      <Group gap="xs">
        <Text fw={700}>{field.field}</Text>
        <Badge variant="outline" color="gray" className="inbox-badge">
          {CHANGE_WORDS[field.change]}
        </Badge>
        {claims.map((kind) => (
          <Badge
            key={kind}
            variant="filled"
            color={kind === 'clinical' ? 'red.9' : 'grape.9'}
            className="inbox-badge"
          >
            {`${KIND_WORDS[kind]}: needs ${WHO_APPROVES[kind]}`}
          </Badge>
        ))}
      </Group>
      <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="xs">
        <div>
          <Text size="sm" c="dimmed">
            Before
          </Text>
          <Text component="del" className="review-before" style={{ whiteSpace: 'pre-wrap' }}>
            {field.before ?? '(none)'}
          </Text>
        </div>
        <div>
          <Text size="sm" c="dimmed">
            After
          </Text>
          <Text component="ins" className="review-after" style={{ whiteSpace: 'pre-wrap' }}>
            {field.after ?? '(none)'}
          </Text>
        </div>
      </SimpleGrid>
      {commenting ? (
        <CommentForm
          label={`Comment on ${field.field}`}
          onCancel={() => setCommenting(false)}
          onSend={async (text) => {
            await contentApi.comment(id, { text, file: path, pointer: field.pointer });
            setCommenting(false);
            await onComment();
          }}
        />
      ) : (
        <Group>
          <Button size="xs" variant="subtle" onClick={() => setCommenting(true)}>
            Comment on this field
          </Button>
        </Group>
      )}
    </Stack>
  );
}

function CommentForm({
  label,
  send = 'Add comment',
  onSend,
  onCancel,
}: {
  label: string;
  send?: string;
  onSend: (text: string) => Promise<void>;
  onCancel?: () => void;
}) {
  const [text, setText] = useState('');
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  return (
    <form
      onSubmit={(event) => {
        event.preventDefault();
        if (text.trim() === '') return;
        setBusy(true);
        setProblem(undefined);
        onSend(text.trim()).then(
          () => {
            setText('');
            setBusy(false);
          },
          (error: unknown) => {
            setProblem(problemOf(error));
            setBusy(false);
          },
        );
      }}
    >
      <Stack gap="xs">
        <Textarea
          label={label}
          value={text}
          onChange={(event) => setText(event.currentTarget.value)}
          required
          autosize
          minRows={2}
        />
        {problem && (
          <Text c="red" role="alert" size="sm">
            {problem}
          </Text>
        )}
        <Group>
          <Button type="submit" size="xs" loading={busy}>
            {send}
          </Button>
          {onCancel && (
            <Button size="xs" variant="default" onClick={onCancel}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

/** Sends a set in review back to its editors, with what to change (kept as a comment). */
function RequestChanges({ id, onSent }: { id: string; onSent: () => Promise<void> }) {
  return (
    <Paper withBorder p="sm">
      <CommentForm
        label="Request changes: what should the editor change?"
        send="Request changes"
        onSend={async (text) => {
          await contentApi.requestChanges(id, text);
          await onSent();
        }}
      />
    </Paper>
  );
}
