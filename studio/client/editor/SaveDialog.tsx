// Before anything is written: the lines the save will change, exactly as they will be on disk.
import { Button, Code, Group, Modal, Text } from '@mantine/core';
import type { DiffLine } from '../api.ts';

const COLOURS = {
  same: undefined,
  removed: 'var(--mantine-color-red-1)',
  added: 'var(--mantine-color-green-1)',
};
const SIGNS = { same: ' ', removed: '-', added: '+' };

type Props = {
  diff: { hunks: DiffLine[][]; changed: number } | undefined;
  close: () => void;
  confirm: () => void;
  title?: string;
};

export function DiffView({ hunks }: { hunks: DiffLine[][] }) {
  return (
    <div data-testid="diff">
      {hunks.map((hunk, i) => (
        <Code block key={i} mb="xs" style={{ padding: 0 }}>
          {hunk.map((line, k) => (
            <div
              key={k}
              style={{ background: COLOURS[line.kind], whiteSpace: 'pre-wrap', padding: '0 6px' }}
              data-kind={line.kind}
            >
              {`${String(line.newLine ?? line.oldLine ?? '').padStart(4)} ${SIGNS[line.kind]} ${line.text}`}
            </div>
          ))}
        </Code>
      ))}
    </div>
  );
}

export function SaveDialog({ diff, close, confirm, title = 'Save these changes?' }: Props) {
  return (
    <Modal opened={diff !== undefined} onClose={close} title={title} size="xl">
      {diff ? (
        <>
          <Text size="sm" mb="sm">
            {diff.changed === 0
              ? 'Nothing changes on disk.'
              : `${diff.changed} line${diff.changed === 1 ? '' : 's'} will change:`}
          </Text>
          <DiffView hunks={diff.hunks} />
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
