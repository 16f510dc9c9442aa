// One change set (issue #28): what it changes, who must approve it (in words), the approvals given (stale ones marked),
// where it is live once published, a failed schedule with its reason; and the acts the member's roles allow: edit (in
// the editor, /staff/edit/), submit, approve (the passkey again when the server asks), publish or schedule, preview
// links. The server decides every act; a refusal is shown with its reason, in place.
import { Alert, Badge, Group, List, Paper, Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { Suspense, use, useState } from 'react';
import type { ChangeView } from '../../contracts/content-api.ts';
import { CONTENT_ROLES, holdsAny, type Me } from '../../contracts/staff-api.ts';
import { exactTime } from '../format.ts';
import type { Loaded } from '../loaded.ts';
import { useSession } from '../session.ts';
import { EditorialOnly } from './ChangeList.tsx';
import { ChangeActions } from './ChangeActions.tsx';
import { Review } from './Review.tsx';
import { contentApi } from './content-api.ts';
import { timeIn } from './site-time.ts';
import { KIND_WORDS, liveSentence, missingSentence, requiresSentence, STATE_WORDS } from './words.ts';

const changeRoute = getRouteApi('/changes/$id');

export function ChangePage() {
  const { me } = useSession();
  const { change } = changeRoute.useLoaderData();
  if (!me || !holdsAny(me.roles, CONTENT_ROLES) || !change) return <EditorialOnly />;
  return (
    <Suspense fallback={<Text>Loading the change set…</Text>}>
      <ShownChange found={change} me={me} />
    </Suspense>
  );
}

function ShownChange({ found, me }: { found: Promise<Loaded<ChangeView>>; me: Me }) {
  const [initial] = useState(found);
  const loaded = use(initial);
  const [change, setChange] = useState(loaded.ok ? loaded.value : undefined);
  if (!change)
    return (
      <Alert color="red" role="alert" title="The change set could not be loaded">
        {loaded.ok ? '' : loaded.problem}
      </Alert>
    );
  const reload = async () => setChange(await contentApi.change(change.id));
  return (
    <Stack>
      <ChangeDetails change={change} />
      <Review
        change={change}
        reviewer={me.roles.includes('reviewer') || me.roles.includes('admin')}
        reload={reload}
      />
      <ChangeActions change={change} me={me} reload={reload} />
    </Stack>
  );
}

/** What the change set is and where it stands; no acts (ChangeActions.tsx). */
export function ChangeDetails({ change }: { change: ChangeView }) {
  const missing = missingSentence(change.missing);
  return (
    <Stack>
      <Title order={1}>{change.title}</Title>
      <Group gap="xs">
        <Badge variant="outline" color="gray" className="inbox-badge">
          {STATE_WORDS[change.state]}
        </Badge>
        {change.live && (
          <Badge variant="outline" color="gray" className="inbox-badge">
            {liveSentence(change.live)}
          </Badge>
        )}
        <Text size="sm">Started by {change.author}</Text>
      </Group>
      <Text>{requiresSentence(change.requires)}</Text>
      {missing && change.state !== 'published' && <Text>{missing}</Text>}
      {change.schedule?.state === 'failed' && (
        <Alert color="red" role="alert" title="The scheduled publish failed">
          {change.schedule.error ?? 'No reason was recorded.'} The live site was left as it was.
        </Alert>
      )}
      {change.schedule && change.schedule.state !== 'failed' && change.schedule.at && (
        <Text>
          Scheduled by {change.schedule.by} for {timeIn(change.schedule.at, change.timeZone)}
          {change.schedule.state === 'done' ? ' (done)' : ''}.
        </Text>
      )}

      <Title order={2}>Documents</Title>
      {change.documents.length === 0 ? (
        <Text>No document changed yet.</Text>
      ) : (
        <List>
          {change.documents.map((document) => (
            <List.Item key={document.path}>
              {/* What staff call it first; the file beside it, in case two pages share a title. */}
              <Text span fw={600}>
                {document.title}
              </Text>{' '}
              <Text span size="sm" c="dimmed">
                ({document.path})
              </Text>
              {`: ${document.summary ?? (document.created ? 'New' : document.deleted ? 'Deleted' : 'Changed')}. `}
              Last saved by {document.updatedBy}
              {document.updatedAt ? `, ${exactTime(document.updatedAt)}` : ''}.
            </List.Item>
          ))}
        </List>
      )}

      <Title order={2}>Approvals</Title>
      {change.approvals.length === 0 ? (
        <Text>No approval yet.</Text>
      ) : (
        <List>
          {change.approvals.map((approval, index) => (
            <List.Item key={`${approval.by}-${index}`}>
              <Group gap="xs" component="span">
                <span>
                  {approval.by} approved {approval.covers.map((kind) => KIND_WORDS[kind]).join(', ')}
                  {approval.at ? `, ${exactTime(approval.at)}` : ''}
                </span>
                {approval.stale && (
                  <Badge color="red.9" variant="filled" className="inbox-badge">
                    Stale: the content changed after it
                  </Badge>
                )}
              </Group>
            </List.Item>
          ))}
        </List>
      )}

      {change.comments.length > 0 && (
        <>
          <Title order={2}>Comments</Title>
          <Stack gap="xs">
            {change.comments.map((comment, index) => (
              <Paper withBorder p="sm" key={`${comment.by}-${index}`}>
                <Text size="sm">
                  {comment.by}
                  {comment.at ? `, ${exactTime(comment.at)}` : ''}
                  {comment.path ? ` on ${comment.path}` : ''}
                </Text>
                <Text style={{ whiteSpace: 'pre-wrap' }}>{comment.text}</Text>
              </Paper>
            ))}
          </Stack>
        </>
      )}
    </Stack>
  );
}
