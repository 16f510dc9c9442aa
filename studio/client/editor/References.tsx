// Links that a change would break, listed before it is made: an anchor id other pages link to, or a page's address.
import { CLOSE } from '../form/IconButton.tsx';
import { Button, Checkbox, Group, List, Modal, Text, TextInput } from '@mantine/core';
import { useState } from 'react';

export type Reference = { file: string; pointer: string; href: string };

export function ReferencesDialog({
  references,
  what,
  close,
  proceed,
}: {
  references: Reference[] | undefined;
  what: string;
  close: () => void;
  proceed: () => void;
}) {
  return (
    <Modal
      opened={references !== undefined}
      onClose={close}
      closeButtonProps={CLOSE}
      title="Other documents link here"
    >
      <Text size="sm" mb="xs">
        {what} These links would stop working:
      </Text>
      <List size="sm" data-testid="references">
        {(references ?? []).map((r) => (
          <List.Item key={`${r.file}${r.pointer}`}>
            {r.file} at {r.pointer}: {r.href}
          </List.Item>
        ))}
      </List>
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={close}>
          Keep it
        </Button>
        <Button color="red" onClick={proceed}>
          Change anyway
        </Button>
      </Group>
    </Modal>
  );
}

export function MoveDialog({
  opened,
  from,
  problem,
  references,
  close,
  move,
}: {
  opened: boolean;
  from: string;
  problem: (path: string) => string | undefined;
  references: Reference[];
  close: () => void;
  move: (path: string, redirect: boolean) => void;
}) {
  const [path, setPath] = useState(from);
  const [redirect, setRedirect] = useState(true);
  const issue = path === from ? 'Choose a new address' : problem(path);
  return (
    <Modal opened={opened} onClose={close} closeButtonProps={CLOSE} title="Move the page to another address">
      <TextInput
        label="New address"
        value={path}
        onChange={(e) => setPath(e.currentTarget.value)}
        error={path !== from ? issue : undefined}
      />
      <Checkbox
        mt="sm"
        checked={redirect}
        onChange={(e) => setRedirect(e.currentTarget.checked)}
        label={`Add a redirect from ${from}, so links and bookmarks to it keep working`}
      />
      {references.length ? (
        <>
          <Text size="sm" mt="sm">
            {references.length} link{references.length === 1 ? '' : 's'} in other documents point at {from}:
          </Text>
          <List size="xs">
            {references.map((r) => (
              <List.Item key={`${r.file}${r.pointer}`}>
                {r.file} at {r.pointer}
              </List.Item>
            ))}
          </List>
        </>
      ) : null}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={close}>
          Cancel
        </Button>
        <Button disabled={issue !== undefined} onClick={() => move(path, redirect)}>
          Move
        </Button>
      </Group>
    </Modal>
  );
}
