// A page's history (issue #28, item 7): every release in which it changed, newest first, with who published it, the
// change set's author and its reviewers; each version opens as visitors saw it; editors restore one (a new change set,
// reviewed like any other); publishers roll the whole site back to an earlier release (after a confirmation, with the
// passkey again when the server asks), which the server records in the audit log.
import { Alert, Anchor, Badge, Button, Group, NativeSelect, Paper, Stack, Text, Title } from '@mantine/core';
import { getRouteApi, useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import type { PageVersion } from '../../contracts/content-api.ts';
import { CONTENT_ROLES, holdsAny, type Me } from '../../contracts/staff-api.ts';
import { exactTime } from '../format.ts';
import { withFreshPasskey } from '../passkeys.ts';
import { useSession } from '../session.ts';
import { EditorialOnly } from './ChangeList.tsx';
import { changePath, contentApi, versionHref } from './content-api.ts';
import { listWords } from './words.ts';

const historyRoute = getRouteApi('/history');
const problemOf = (error: unknown) => (error instanceof Error ? error.message : String(error));

export function History() {
  const { me } = useSession();
  const { file } = historyRoute.useSearch();
  const navigate = useNavigate();
  const [pages, setPages] = useState<string[]>();
  const [versions, setVersions] = useState<PageVersion[]>();
  const [problem, setProblem] = useState<string>();
  const [shown, setShown] = useState(0);
  const allowed = me !== null && me !== undefined && holdsAny(me.roles, CONTENT_ROLES);
  useEffect(() => {
    if (allowed) contentApi.pages().then(setPages, (error: unknown) => setProblem(problemOf(error)));
  }, [allowed]);
  useEffect(() => {
    setVersions(undefined);
    if (allowed && file)
      contentApi.history(file).then(setVersions, (error: unknown) => setProblem(problemOf(error)));
  }, [allowed, file, shown]);
  if (!allowed || !me) return <EditorialOnly />;
  return (
    <Stack>
      <Title order={1}>Page history</Title>
      {problem && (
        <Alert color="red" role="alert" title="The history could not be loaded">
          {problem}
        </Alert>
      )}
      <NativeSelect
        label="Page"
        value={file ?? ''}
        data={[{ value: '', label: pages ? 'Choose a page' : 'Loading the pages…' }, ...(pages ?? [])]}
        onChange={(event) =>
          void navigate({ to: '/history', search: { file: event.currentTarget.value || undefined } })
        }
      />
      {file && !versions && !problem && <Text>Loading its versions…</Text>}
      {file &&
        versions?.map((version) => (
          <VersionCard
            key={version.release}
            version={version}
            file={file}
            me={me}
            onRolledBack={() => setShown((count) => count + 1)}
          />
        ))}
    </Stack>
  );
}

/** One version: who published it, whose change it was, who reviewed it; open, restore, roll back. */
export function VersionCard({
  version,
  file,
  me,
  onRolledBack,
}: {
  version: PageVersion;
  file: string;
  me: Pick<Me, 'roles'>;
  onRolledBack: () => void;
}) {
  const navigate = useNavigate();
  const [confirming, setConfirming] = useState(false);
  const [problem, setProblem] = useState<string>();
  const [said, setSaid] = useState<string>();
  const reviewers = version.reviewers.map((reviewer) =>
    reviewer.name ? `${reviewer.name}${reviewer.credential ? `, ${reviewer.credential}` : ''}` : reviewer.by,
  );
  const run = async (work: () => Promise<void>) => {
    setProblem(undefined);
    try {
      await work();
    } catch (error) {
      setProblem(problemOf(error));
    }
  };
  return (
    <Paper withBorder p="sm" component="article" aria-label={`Release ${version.release}`}>
      <Stack gap="xs">
        <Group gap="xs">
          <Title order={2} size="h4">
            Release {version.release}
          </Title>
          {version.live && (
            <Badge variant="outline" color="gray" className="inbox-badge">
              Live now
            </Badge>
          )}
        </Group>
        <Text>
          {version.exists ? 'Published' : 'Removed'} {exactTime(version.at)} by {version.publishedBy}.
        </Text>
        {version.change ? (
          <Text>
            From the change set “{version.change.title}” by {version.change.author}
            {reviewers.length > 0 ? `, reviewed by ${listWords(reviewers)}` : ', with no review recorded'}.
          </Text>
        ) : (
          <Text>{version.message}</Text>
        )}
        <Group>
          {version.exists && (
            <Anchor href={versionHref(version.release, file)} target="_blank" rel="noreferrer">
              Open as visitors saw it
            </Anchor>
          )}
          {me.roles.includes('editor') && !version.live && (
            <Button
              size="xs"
              variant="default"
              onClick={() =>
                void run(async () => {
                  const { id } = await contentApi.restore(version.release, file);
                  await navigate({ to: changePath(id) });
                })
              }
            >
              Restore this version
            </Button>
          )}
          {me.roles.includes('publisher') && !version.live && !confirming && (
            <Button size="xs" variant="default" color="red" onClick={() => setConfirming(true)}>
              Roll the site back…
            </Button>
          )}
        </Group>
        {confirming && (
          <Group>
            <Text>
              Put the whole site back to release {version.release}? Every page goes back, not only this one.
            </Text>
            <Button
              size="xs"
              color="red"
              onClick={() =>
                void run(async () => {
                  await withFreshPasskey(() => contentApi.rollback(version.release));
                  setConfirming(false);
                  setSaid(`The site is back to release ${version.release}.`);
                  onRolledBack();
                })
              }
            >
              Roll back to release {version.release}
            </Button>
            <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
              Cancel
            </Button>
          </Group>
        )}
        {said && <Text role="status">{said}</Text>}
        {problem && (
          <Text c="red" role="alert">
            {problem}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
