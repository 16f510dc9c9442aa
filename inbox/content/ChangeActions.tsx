// The acts on a change set, each shown only to the roles that may do it: edit (the editor, another screen), submit for
// review, approve, publish, schedule (and cancel a pending schedule, after a confirmation), preview links. Approve,
// publish, schedule and cancel ask for the passkey again when the server says this session's last check is too old
// (passkeys.ts). A refusal is shown with the server's reason (four eyes, authority, missing or stale approvals,
// conflicting fields, a schedule already running), in place.
import { Alert, Anchor, Button, Group, List, NumberInput, Paper, Stack, Text, Title } from '@mantine/core';
import { useId, useState } from 'react';
import type { ChangeView, PublishRefused } from '../../contracts/content-api.ts';
import type { Me } from '../../contracts/staff-api.ts';
import { ApiError } from '../api.ts';
import { withFreshPasskey } from '../passkeys.ts';
import { contentApi, editorHref } from './content-api.ts';
import { timeIn } from './site-time.ts';
import { liveSentence, refusalLines } from './words.ts';
import { CancelSchedule, ScheduleForm } from './ScheduleControls.tsx';

/** Why the member may not approve, before asking: they saved a revision of it (four eyes). */
export function approveRefusal(change: ChangeView, me: Pick<Me, 'email'>): string | undefined {
  if (change.author === me.email || change.editors.includes(me.email))
    return 'You edited this change set: someone else must approve it (four eyes).';
  return undefined;
}

/** The server's own reason for a refusal, as a sentence (its 403s and 409s say who may, or what is missing). */
const reasonOf = (error: unknown): string => {
  if (!(error instanceof ApiError)) return error instanceof Error ? error.message : String(error);
  if ((error.status === 403 || error.status === 409) && error.serverMessage)
    return `${error.serverMessage.charAt(0).toUpperCase()}${error.serverMessage.slice(1)}.`;
  return error.message;
};

/** The refusal's title, by act: "Not approved". */
const NOT_DONE: Readonly<Record<string, string>> = {
  approve: 'approved',
  publish: 'published',
  cancel: 'cancelled',
  dismiss: 'dismissed',
};

type Outcome = { tone: 'done' | 'refused'; title: string; lines: string[] };

export function ChangeActions({
  change,
  me,
  reload,
}: {
  change: ChangeView;
  me: Me;
  reload: () => Promise<void>;
}) {
  const [outcome, setOutcome] = useState<Outcome>();
  const [busy, setBusy] = useState<string>();
  const roles = new Set(me.roles);
  const editor = roles.has('editor');
  const reviewer = roles.has('reviewer') || roles.has('admin');
  const publisher = roles.has('publisher');
  const open = change.state !== 'published';
  const refusal = approveRefusal(change, me);
  const refusalId = useId();

  const act = async (name: string, work: () => Promise<string>) => {
    setBusy(name);
    setOutcome(undefined);
    try {
      const said = await work();
      setOutcome({ tone: 'done', title: said, lines: [] });
      await reload();
    } catch (error) {
      const lines =
        name === 'publish' && error instanceof ApiError && error.status === 409
          ? refusalLines((error.body ?? {}) as Partial<PublishRefused>, change.approvals)
          : [];
      setOutcome({
        tone: 'refused',
        title: `Not ${NOT_DONE[name] ?? 'done'}`,
        lines: lines.length > 0 ? lines : [reasonOf(error)],
      });
    } finally {
      setBusy(undefined);
    }
  };

  if (!open && !outcome) return null;
  return (
    <Stack component="section" aria-labelledby={`${refusalId}-acts`}>
      <Title order={2} id={`${refusalId}-acts`}>
        Actions
      </Title>
      {outcome && (
        <Alert
          // Mantine's green (and the brand colour) on its light background fell below AA contrast in the title (axe,
          // light scheme): a done act's title is in the text colour, on the brand's tint.
          color={outcome.tone === 'done' ? undefined : 'red'}
          styles={outcome.tone === 'done' ? { title: { color: 'var(--mantine-color-text)' } } : undefined}
          role={outcome.tone === 'done' ? 'status' : 'alert'}
          title={outcome.title}
        >
          {outcome.lines.length === 1 ? (
            outcome.lines[0]
          ) : (
            <List>
              {outcome.lines.map((line) => (
                <List.Item key={line}>{line}</List.Item>
              ))}
            </List>
          )}
        </Alert>
      )}
      {open && (
        <Group>
          {editor && (
            <Button component="a" href={editorHref(change.id)} variant="default">
              Edit
            </Button>
          )}
          {editor && change.state === 'draft' && (
            <Button
              loading={busy === 'submit'}
              onClick={() =>
                void act('submit', async () => {
                  await contentApi.submit(change.id);
                  return 'Submitted for review';
                })
              }
            >
              Submit for review
            </Button>
          )}
          {reviewer && change.state === 'in_review' && (
            <Button
              loading={busy === 'approve'}
              disabled={refusal !== undefined}
              aria-describedby={refusal ? refusalId : undefined}
              onClick={() =>
                void act('approve', async () => {
                  await withFreshPasskey(() => contentApi.approve(change.id));
                  return 'Approved';
                })
              }
            >
              Approve
            </Button>
          )}
          {publisher && change.state === 'in_review' && (
            <Button
              loading={busy === 'publish'}
              onClick={() =>
                void act('publish', async () => {
                  const published = await withFreshPasskey(() => contentApi.publish(change.id));
                  return `Published: ${liveSentence(published.live)}`;
                })
              }
            >
              Publish
            </Button>
          )}
        </Group>
      )}
      {reviewer && change.state === 'in_review' && refusal && (
        <Text id={refusalId} c="dimmed">
          {refusal}
        </Text>
      )}
      {publisher && change.state === 'in_review' && change.schedule?.state === 'pending' && (
        <CancelSchedule
          at={change.schedule.at}
          timeZone={change.timeZone}
          busy={busy === 'cancel'}
          onCancel={() =>
            void act('cancel', async () => {
              await withFreshPasskey(() => contentApi.cancelSchedule(change.id));
              return 'Schedule cancelled: it will not be published on its own';
            })
          }
        />
      )}
      {publisher && change.schedule?.state === 'failed' && (
        // The failure is shown above with its reason, and kept in the audit log; dismissed, /healthz is clear of it.
        <Group>
          <Button
            variant="default"
            loading={busy === 'dismiss'}
            onClick={() =>
              void act('dismiss', async () => {
                await withFreshPasskey(() => contentApi.cancelSchedule(change.id));
                return 'Failed schedule dismissed: the audit log keeps it';
              })
            }
          >
            Dismiss the failed schedule
          </Button>
        </Group>
      )}
      {publisher && change.state === 'in_review' && (
        <ScheduleForm
          busy={busy === 'schedule'}
          timeZone={change.timeZone}
          current={change.schedule?.state === 'pending' ? change.schedule.at : null}
          onSchedule={(at) =>
            void act('schedule', async () => {
              await withFreshPasskey(() => contentApi.schedule(change.id, new Date(at)));
              return `Scheduled for ${timeIn(at, change.timeZone)}`;
            })
          }
        />
      )}
      {open && <PreviewLinks id={change.id} />}
    </Stack>
  );
}

const MAX_HOURS = 168;

/** Links for people without an account (a physician reviewing by e-mail): made for some hours, copied, all revoked. */
function PreviewLinks({ id }: { id: string }) {
  const [hours, setHours] = useState<number | string>(24);
  const [made, setMade] = useState<{ url: string; expiresAt: string | null }>();
  const [said, setSaid] = useState<string>();
  const [problem, setProblem] = useState<string>();
  const run = async (work: () => Promise<void>) => {
    setProblem(undefined);
    setSaid(undefined);
    try {
      await work();
    } catch (error) {
      setProblem(reasonOf(error));
    }
  };
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Title order={3}>Preview links</Title>
        <Text size="sm">
          For someone without an account. A link shows this change set as it is now, not published.
        </Text>
        <Group align="end">
          <NumberInput
            label="Expires after (hours, at most 7 days)"
            min={1}
            max={MAX_HOURS}
            value={hours}
            onChange={setHours}
            w={260}
          />
          <Button
            variant="default"
            onClick={() =>
              void run(async () => {
                setMade(await contentApi.createPreviewLink(id, Number(hours)));
              })
            }
          >
            Create a link
          </Button>
          <Button
            variant="subtle"
            color="red"
            onClick={() =>
              void run(async () => {
                const { revoked } = await contentApi.revokePreviewLinks(id);
                setMade(undefined);
                setSaid(`${revoked} preview link${revoked === 1 ? '' : 's'} revoked.`);
              })
            }
          >
            Revoke all links
          </Button>
        </Group>
        {made && (
          <Group>
            <Anchor href={made.url} target="_blank" rel="noreferrer" style={{ wordBreak: 'break-all' }}>
              {made.url}
            </Anchor>
            <Button
              size="xs"
              variant="default"
              onClick={() =>
                void run(async () => {
                  await navigator.clipboard.writeText(made.url);
                  setSaid('Link copied.');
                })
              }
            >
              Copy
            </Button>
          </Group>
        )}
        {made?.expiresAt && <Text size="sm">Expires {new Date(made.expiresAt).toLocaleString()}.</Text>}
        {said && (
          <Text size="sm" role="status">
            {said}
          </Text>
        )}
        {problem && (
          <Text size="sm" c="red" role="alert">
            {problem}
          </Text>
        )}
      </Stack>
    </Paper>
  );
}
