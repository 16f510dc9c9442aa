// An admin invites a member: an e-mail and the roles (from the server's list, STAFF_ROLES), checked as they are typed
// by the very rules the server checks the request with (contracts/desk-rules.ts) through @mantine/form. The one-time
// link is shown once, at the address the admin is on; inviting asks for the admin's passkey again when their last
// check is over 5 minutes old.
import {
  Alert,
  Button,
  Checkbox,
  CopyButton,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useForm } from '@mantine/form';
import { useState } from 'react';
import { emailRule, rolesRule } from '../../contracts/desk-rules.ts';
import type { InviteAnswer } from '../../contracts/staff-admin.ts';
import { isStaffRole, type StaffRole } from '../../contracts/staff-api.ts';
import { exactTime } from '../format.ts';
import { withFreshPasskey } from '../passkeys.ts';
import { adminApi, roleLabel } from './admin-api.ts';

interface InviteValues {
  email: string;
  roles: string[];
  reinstate: boolean;
}

export function InviteForm({ roles, onInvited }: { roles: StaffRole[]; onInvited: () => void }) {
  const [answer, setAnswer] = useState<InviteAnswer>();
  const [problem, setProblem] = useState<string>();
  const [busy, setBusy] = useState(false);
  const form = useForm<InviteValues>({
    mode: 'controlled',
    initialValues: { email: '', roles: ['admissions'], reinstate: false },
    validate: { email: emailRule, roles: rolesRule },
  });
  const send = async (values: InviteValues) => {
    setBusy(true);
    setProblem(undefined);
    setAnswer(undefined);
    try {
      const chosen = values.roles.filter(isStaffRole);
      setAnswer(await withFreshPasskey(() => adminApi.invite(values.email.trim(), chosen, values.reinstate)));
      form.reset();
      onInvited();
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="invite-title">
      <form onSubmit={form.onSubmit((values) => void send(values))} noValidate>
        <Stack>
          <Title order={2} size="h3" id="invite-title">
            Invite a member
          </Title>
          <TextInput
            label="E-mail"
            type="email"
            autoComplete="off"
            required
            key={form.key('email')}
            {...form.getInputProps('email')}
          />
          <Checkbox.Group label="Roles" required key={form.key('roles')} {...form.getInputProps('roles')}>
            <Group mt="xs">
              {roles.map((role) => (
                <Checkbox key={role} value={role} label={roleLabel(role)} />
              ))}
            </Group>
          </Checkbox.Group>
          <Checkbox
            label="Let a revoked member back in (a reinstatement)"
            key={form.key('reinstate')}
            {...form.getInputProps('reinstate', { type: 'checkbox' })}
          />
          <Group>
            <Button type="submit" loading={busy}>
              Make an invitation link
            </Button>
          </Group>
          {problem && (
            <Alert color="red" role="alert" title="No invitation was made">
              {problem}
            </Alert>
          )}
          {answer && (
            <Stack gap="xs" role="status">
              <Text>
                {answer.kind === 'add a passkey'
                  ? `${answer.email} is a member already: this link adds a passkey to their account.`
                  : `Invitation for ${answer.email}.`}{' '}
                Send them this link. It works once, until {exactTime(answer.expiresAt)}, and is not shown
                again.
              </Text>
              <TextInput
                label="Enrolment link"
                value={answer.link}
                readOnly
                onFocus={(e) => e.target.select()}
              />
              <Group>
                <CopyButton value={answer.link}>
                  {({ copied, copy }) => (
                    <Button variant="default" onClick={copy}>
                      {copied ? 'Copied' : 'Copy the link'}
                    </Button>
                  )}
                </CopyButton>
              </Group>
            </Stack>
          )}
        </Stack>
      </form>
    </Paper>
  );
}
