// Before anything is written: the fields the save changes, with their values before and after, in words (the file
// keeps every other line as it was: a save writes only the lines of the fields that changed).
import { CLOSE } from '../form/IconButton.tsx';
import { Button, Group, List, Modal, Text } from '@mantine/core';
import type { Json } from '../../../content/json-pointer.ts';
import type { FieldChange } from '../../../content/merge/three-way.ts';
import { fieldWords, valueWords } from './field-words.ts';

export type SaveSummary = { changes: FieldChange[]; lines: number; doc: Json; isNew: boolean };

type Props = { summary: SaveSummary | undefined; close: () => void; confirm: () => void };

/** Each changed field: where it is, in words, and its value before and after. */
export function FieldChanges({ changes, doc }: { changes: FieldChange[]; doc: Json }) {
  return (
    <List size="sm" spacing={4} data-testid="diff">
      {changes.map((c) => (
        <List.Item
          key={c.pointer}
          data-kind={c.before === undefined ? 'added' : c.after === undefined ? 'removed' : 'changed'}
        >
          <Text span size="sm" fw={600}>
            {fieldWords(doc, c.pointer)}
          </Text>
          <Text span size="sm">
            {c.before === undefined
              ? `: added, ${valueWords(c.after)}`
              : c.after === undefined
                ? `: removed (was ${valueWords(c.before)})`
                : `: ${valueWords(c.before)} → ${valueWords(c.after)}`}
          </Text>
        </List.Item>
      ))}
    </List>
  );
}

export function SaveDialog({ summary, close, confirm }: Props) {
  return (
    <Modal
      opened={summary !== undefined}
      onClose={close}
      closeButtonProps={CLOSE}
      title="Save these changes?"
      size="xl"
    >
      {summary ? (
        <>
          <Text size="sm" mb="sm">
            {summary.isNew
              ? 'A new file will be written.'
              : summary.changes.length === 0
                ? 'Nothing changes on disk.'
                : `${summary.changes.length} field${summary.changes.length === 1 ? '' : 's'} change (${summary.lines} line${summary.lines === 1 ? '' : 's'} of the file):`}
          </Text>
          {summary.isNew ? null : <FieldChanges changes={summary.changes} doc={summary.doc} />}
          <Group justify="flex-end" mt="md">
            <Button variant="default" onClick={close}>
              Keep editing
            </Button>
            <Button onClick={confirm} data-autofocus>
              Write to file
            </Button>
          </Group>
        </>
      ) : null}
    </Modal>
  );
}
