// The file changed on disk while it was open: the save was refused, and staff choose what happens to either change.
import { Alert, Button, Group, Text } from '@mantine/core';
import type { DiffLine } from '../api.ts';
import { DiffView } from './SaveDialog.tsx';

type Props = {
  comparison: DiffLine[][] | undefined;
  reload: () => void;
  compare: () => void;
  keepMine: () => void;
};

export function ConflictBanner({ comparison, reload, compare, keepMine }: Props) {
  return (
    <Alert
      color="orange"
      title="This file changed on disk since you opened it"
      role="alert"
      data-testid="conflict"
    >
      <Text size="sm">
        Your save was refused so the other change is not lost. Your edits are kept as a draft.
      </Text>
      <Group gap="xs" mt="xs">
        <Button size="compact-sm" onClick={reload}>
          Reload from disk (drop my edits)
        </Button>
        <Button size="compact-sm" variant="light" onClick={compare}>
          Compare with my edits
        </Button>
        <Button size="compact-sm" variant="light" onClick={keepMine}>
          Keep my edits on top of the new version
        </Button>
      </Group>
      {comparison ? <DiffView hunks={comparison} /> : null}
    </Alert>
  );
}
