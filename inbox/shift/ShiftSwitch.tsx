// "On shift": with round robin on (ROUND_ROBIN), new leads go to the members on shift in turn; each marks themselves
// here. Hidden when round robin is off, where it would change nothing.
import { Alert, Paper, Stack, Switch, Text, Title } from '@mantine/core';
import { useEffect, useState } from 'react';
import type { ShiftState } from '../../contracts/staff-admin.ts';
import { adminApi } from '../admin/admin-api.ts';

export function ShiftSwitch() {
  const [state, setState] = useState<ShiftState>();
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string>();
  useEffect(() => {
    adminApi.shift().then(setState, () => undefined);
  }, []);
  if (!state?.roundRobin) return null;
  const toggle = async (onShift: boolean) => {
    setBusy(true);
    setProblem(undefined);
    try {
      setState(await adminApi.setShift(onShift));
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setBusy(false);
    }
  };
  return (
    <Paper withBorder p="md" component="section" aria-labelledby="shift-title">
      <Stack gap="xs">
        <Title order={2} size="h3" id="shift-title">
          Shift
        </Title>
        <Switch
          label="I am on shift: give me new requests in turn"
          checked={state.onShift}
          disabled={busy}
          onChange={(event) => void toggle(event.currentTarget.checked)}
        />
        <Text size="sm" c="dimmed">
          New requests go to the members on shift, one after another, and show them as the owner. Your shift
          ends when you sign out or your session ends.
        </Text>
        {problem && (
          <Alert color="red" role="alert">
            {problem}
          </Alert>
        )}
      </Stack>
    </Paper>
  );
}
