// After a reload: the unsaved draft kept in the browser is back, and can be dropped in one click.
import { Alert, Button, Group, Text } from '@mantine/core';

export function DraftRestored({ discard }: { discard: () => void }) {
  return (
    <Alert color="blue" p="xs" title="Unsaved draft restored">
      <Group gap="xs">
        <Text size="sm">Your changes from before the reload are back.</Text>
        <Button size="compact-xs" variant="light" onClick={discard}>
          Discard the draft
        </Button>
      </Group>
    </Alert>
  );
}
