// Above the editor: what is open, its errors and warnings, undo and redo, and Save (disabled while the validator
// finds errors: the server would refuse them; spelling and repeats fail `npm run check`, and are listed, not blocking).
import { Badge, Button, Group, Text } from '@mantine/core';
import { useSyncExternalStore } from 'react';
import type { DocumentStore } from './document-store.ts';

type Props = {
  file: string;
  dirty: boolean;
  errorCount: number;
  /** Errors a save is refused for (the validator's); the others fail `npm run check` but may be saved. */
  blocking: number;
  warningCount: number;
  /** The draft the errors belong to; the draft as typed may be newer (then it is being checked). */
  checkedDoc: unknown;
  store: DocumentStore;
  canUndo: boolean;
  canRedo: boolean;
  undo: () => void;
  redo: () => void;
  save: () => void;
  firstError: () => void;
};

export function Toolbar(p: Props) {
  const checking = useSyncExternalStore(p.store.subscribe, () => p.store.current()?.doc !== p.checkedDoc);
  return (
    <Group justify="space-between" wrap="nowrap" gap="xs">
      <Text fw={600} truncate>
        {p.file}
        {p.dirty ? ' (unsaved changes)' : ''}
      </Text>
      <Group gap="xs" wrap="nowrap">
        <Badge color={p.errorCount && !checking ? 'red.2' : 'green.2'} c="dark.9" data-testid="error-count">
          {checking
            ? 'Checking…'
            : p.errorCount
              ? `${p.errorCount} error${p.errorCount === 1 ? '' : 's'}`
              : 'No errors'}
        </Badge>
        {p.warningCount && !checking ? (
          <Badge color="yellow.2" c="dark.9" data-testid="warning-count">
            {`${p.warningCount} warning${p.warningCount === 1 ? '' : 's'}`}
          </Badge>
        ) : null}
        {p.errorCount ? (
          <Button size="xs" variant="light" color="red" onClick={p.firstError}>
            Go to first error
          </Button>
        ) : null}
        <Button
          size="xs"
          variant="default"
          onClick={p.undo}
          disabled={!p.canUndo}
          aria-keyshortcuts="Control+Z"
        >
          Undo
        </Button>
        <Button
          size="xs"
          variant="default"
          onClick={p.redo}
          disabled={!p.canRedo}
          aria-keyshortcuts="Control+Shift+Z"
        >
          Redo
        </Button>
        <Button size="xs" onClick={p.save} disabled={p.blocking > 0 || checking || !p.dirty}>
          Save
        </Button>
      </Group>
    </Group>
  );
}
