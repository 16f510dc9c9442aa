// Staff, for admins: every member (e-mail, roles, passkeys, last sign-in, revoked), the invitations waiting, and the
// acts on them: invite (InviteForm.tsx), cancel an invitation, change a member's roles, revoke (after a confirmation).
// The same rules as `npm run staff` (server/staff/staff-management.ts); each act is audited with the admin's e-mail.
import { Alert, Badge, Button, Checkbox, Group, Paper, Stack, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { Suspense, use, useCallback, useState } from 'react';
import type { Team as TeamAnswer, TeamInvite, TeamMember } from '../../contracts/staff-admin.ts';
import { isStaffRole, type StaffRole } from '../../contracts/staff-api.ts';
import { exactTime } from '../format.ts';
import type { Loaded } from '../loaded.ts';
import { withFreshPasskey } from '../passkeys.ts';
import { useSession } from '../session.ts';
import { adminApi, roleLabel } from './admin-api.ts';
import { InviteForm } from './InviteForm.tsx';

const teamApi = getRouteApi('/team');

export function Team() {
  const { me } = useSession();
  const { team } = teamApi.useLoaderData();
  if (!me?.admin || !team)
    return (
      <Alert color="red" role="alert" title="Admins only">
        Only admins can manage staff.
      </Alert>
    );
  return (
    <Stack>
      <Title order={1}>Staff</Title>
      <Suspense fallback={<Text>Loading the staff…</Text>}>
        <ShownTeam found={team} me={me.email} />
      </Suspense>
    </Stack>
  );
}

function ShownTeam({ found, me }: { found: Promise<Loaded<TeamAnswer>>; me: string }) {
  const [initial] = useState(found);
  const loaded = use(initial);
  const [team, setTeam] = useState(loaded.ok ? loaded.value : undefined);
  const [problem, setProblem] = useState(loaded.ok ? undefined : loaded.problem);
  const [done, setDone] = useState<string>();
  const reload = useCallback(async () => {
    try {
      setTeam(await adminApi.team());
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  }, []);
  /** Runs an act on a member, says what it did, and shows the staff afresh. */
  const act = async (work: () => Promise<void>, said: string) => {
    setProblem(undefined);
    setDone(undefined);
    try {
      await work();
      setDone(said);
      await reload();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    }
  };
  if (!team)
    return (
      <Alert color="red" role="alert" title="The staff could not be loaded">
        {problem}
      </Alert>
    );
  const active = team.members.filter((member) => member.revokedAt === null);
  const revoked = team.members.filter((member) => member.revokedAt !== null);
  return (
    <>
      <InviteForm roles={team.roles} onInvited={() => void reload()} />
      {done && <Text role="status">{done}</Text>}
      {problem && (
        <Alert color="red" role="alert" title="Nothing was changed">
          {problem}
        </Alert>
      )}
      {team.invites.length > 0 && (
        <section aria-labelledby="invites-title">
          <Title order={2} size="h3" id="invites-title" mb="sm">
            Invitations waiting
          </Title>
          <Stack gap="sm">
            {team.invites.map((invite) => (
              <Invite
                key={`${invite.email} ${invite.createdAt}`}
                invite={invite}
                onCancel={() =>
                  act(
                    () => adminApi.cancelInvite(invite.email),
                    `The invitation for ${invite.email} was cancelled: its link no longer works.`,
                  )
                }
              />
            ))}
          </Stack>
        </section>
      )}
      <section aria-labelledby="members-title">
        <Title order={2} size="h3" id="members-title" mb="sm">
          Members
        </Title>
        <Stack gap="sm">
          {active.map((member) => (
            <Member key={member.email} member={member} roles={team.roles} me={me} act={act} />
          ))}
          {active.length === 0 && <Text>No members yet.</Text>}
        </Stack>
      </section>
      {revoked.length > 0 && (
        <section aria-labelledby="revoked-title">
          <Title order={2} size="h3" id="revoked-title" mb="sm">
            Revoked
          </Title>
          <Stack gap="sm">
            {revoked.map((member) => (
              <Member key={member.email} member={member} roles={team.roles} me={me} act={act} />
            ))}
          </Stack>
        </section>
      )}
    </>
  );
}

function Invite({ invite, onCancel }: { invite: TeamInvite; onCancel: () => Promise<void> }) {
  return (
    <Paper withBorder p="sm">
      <Group justify="space-between">
        <div>
          <Text fw={700}>{invite.email}</Text>
          <Text size="sm">
            {invite.roles.map(roleLabel).join(', ')}; {invite.kind}; until {exactTime(invite.expiresAt)}
          </Text>
        </div>
        <Button variant="default" size="sm" onClick={() => void onCancel()}>
          Cancel invitation
        </Button>
      </Group>
    </Paper>
  );
}

interface MemberProps {
  member: TeamMember;
  roles: StaffRole[];
  me: string;
  act: (work: () => Promise<void>, said: string) => Promise<void>;
}

function Member({ member, roles, me, act }: MemberProps) {
  const [editing, setEditing] = useState(false);
  const [chosen, setChosen] = useState<string[]>(member.roles);
  const [confirming, setConfirming] = useState(false);
  const self = member.email === me;
  const live = member.revokedAt === null;
  return (
    <Paper withBorder p="sm" component="article" aria-label={member.email}>
      <Stack gap="xs">
        <Group justify="space-between" gap="xs">
          <Text fw={700} className="inbox-grow" style={{ overflowWrap: 'anywhere' }}>
            {member.email}
            {self ? ' (you)' : ''}
          </Text>
          <Group gap={4}>
            {member.roles.map((role) => (
              <Badge key={role} variant="outline" color="gray" className="inbox-badge">
                {roleLabel(role)}
              </Badge>
            ))}
            {member.onShift && (
              <Badge variant="filled" color="gray" className="inbox-badge">
                On shift
              </Badge>
            )}
          </Group>
        </Group>
        <Text size="sm">
          {member.passkeys === 1 ? '1 passkey' : `${member.passkeys} passkeys`}; last sign-in{' '}
          {member.lastSignInAt ? exactTime(member.lastSignInAt) : 'never'}
          {member.revokedAt ? `; revoked ${exactTime(member.revokedAt)}` : ''}
        </Text>
        {live && !editing && !confirming && (
          <Group gap="xs">
            <Button size="xs" variant="default" onClick={() => setEditing(true)}>
              Change roles
            </Button>
            {!self && (
              <Button size="xs" variant="default" color="red" onClick={() => setConfirming(true)}>
                Revoke…
              </Button>
            )}
          </Group>
        )}
        {editing && (
          <Stack gap="xs">
            <Checkbox.Group label={`Roles of ${member.email}`} value={chosen} onChange={setChosen}>
              <Group mt="xs">
                {roles.map((role) => (
                  <Checkbox
                    key={role}
                    value={role}
                    label={roleLabel(role)}
                    // An admin cannot take their own admin role away (another admin can).
                    disabled={self && role === 'admin'}
                  />
                ))}
              </Group>
            </Checkbox.Group>
            <Group gap="xs">
              <Button
                size="xs"
                disabled={chosen.length === 0}
                onClick={() =>
                  void act(
                    async () => {
                      await withFreshPasskey(() =>
                        adminApi.setRoles(member.email, chosen.filter(isStaffRole)),
                      );
                      setEditing(false);
                    },
                    `${member.email} now has the roles ${chosen.map(roleLabel).join(', ')}.`,
                  )
                }
              >
                Save roles
              </Button>
              <Button size="xs" variant="default" onClick={() => setEditing(false)}>
                Cancel
              </Button>
            </Group>
          </Stack>
        )}
        {confirming && (
          <Stack gap="xs">
            <Text size="sm">
              Revoke {member.email}? They are signed out everywhere at once, their passkeys are deleted and
              their invitations cancelled. Only a new invitation lets them back in.
            </Text>
            <Group gap="xs">
              <Button
                size="xs"
                color="red"
                onClick={() =>
                  void act(
                    () => adminApi.revoke(member.email),
                    `${member.email} was revoked: signed out everywhere, passkeys deleted.`,
                  )
                }
              >
                Revoke access
              </Button>
              <Button size="xs" variant="default" onClick={() => setConfirming(false)}>
                Keep them
              </Button>
            </Group>
          </Stack>
        )}
      </Stack>
    </Paper>
  );
}
