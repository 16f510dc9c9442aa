// The file changed on disk while it was open (seen by the watch, or a save refused): staff learn who changed it, see
// both sides' changes as fields and values, and bring both together. The merge is field by field
// (content/merge/three-way.ts): it stops only at a field both changed, and asks which value to keep there.
import { Alert, Button, Group, List, Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import type { Json } from '../../../content/json-pointer.ts';
import type { FieldChange, MergeConflict } from '../../../content/merge/three-way.ts';
import { fieldWords, valueWords } from './field-words.ts';
import { online } from '../backend/backend.ts';

// Online there is no file or disk: the change set's saved copy of the document.
const WORDS = online
  ? { thing: 'This document', reload: 'Reload the saved version (drop my edits)' }
  : { thing: 'This file', reload: 'Reload from disk (drop my edits)' };

export type Stale = {
  /** Who changed it, in words (from git, or the time on disk). */
  changedBy: string;
  /** Set once staff asked to compare: their changes and mine, each against what my edits started from. */
  comparison?: { theirs: FieldChange[]; mine: FieldChange[]; theirsDoc: Json };
  /** Set when a merge stopped: the fields both changed. */
  conflicts?: MergeConflict[];
  /** Whether a save was refused (else the watch saw it first). */
  refused: boolean;
};

type Props = {
  stale: Stale;
  /** The document the pointers lead into (mine), for the fields' names. */
  doc: Json;
  reload: () => void;
  compare: () => void;
  keepMine: () => void;
  decide: (choices: Record<string, 'mine' | 'theirs'>) => void;
};

function Changes({ title, changes, doc }: { title: string; changes: FieldChange[]; doc: Json }) {
  return (
    <div>
      <Text size="sm" fw={600}>
        {title}
      </Text>
      {changes.length === 0 ? (
        <Text size="sm">No fields.</Text>
      ) : (
        <List size="sm">
          {changes.map((c) => (
            <List.Item key={c.pointer}>
              {fieldWords(doc, c.pointer)}: {valueWords(c.before)} → {valueWords(c.after)}
            </List.Item>
          ))}
        </List>
      )}
    </div>
  );
}

export function ConflictBanner({ stale, doc, reload, compare, keepMine, decide }: Props) {
  const [choices, setChoices] = useState<Record<string, 'mine' | 'theirs'>>({});
  const who = stale.changedBy.startsWith('changed on disk')
    ? stale.changedBy
    : `changed by ${stale.changedBy}`;
  const theirName = stale.changedBy.startsWith('changed on disk')
    ? 'On disk'
    : stale.changedBy.replace(/ \(.*$/, '');
  const conflicts = stale.conflicts ?? [];
  return (
    <Alert
      color="orange"
      title={`${WORDS.thing} was ${who} since you opened it`}
      role="alert"
      data-testid="conflict"
    >
      <Text size="sm">
        {stale.refused ? 'Your save was refused so the other change is not lost. ' : ''}Your edits are kept as
        a draft.
      </Text>
      {conflicts.length === 0 ? (
        <Group gap="xs" mt="xs">
          <Button size="compact-sm" onClick={keepMine}>
            Keep my edits on top of the new version
          </Button>
          <Button size="compact-sm" variant="light" onClick={compare}>
            Compare with my edits
          </Button>
          <Button size="compact-sm" variant="light" color="red" onClick={reload}>
            {WORDS.reload}
          </Button>
        </Group>
      ) : (
        <Stack gap="xs" mt="xs" data-testid="merge-conflicts">
          <Text size="sm">
            Everything else is merged. You and {theirName === 'On disk' ? 'the change on disk' : theirName}{' '}
            both changed {conflicts.length === 1 ? 'this field' : 'these fields'}; choose which to keep:
          </Text>
          {conflicts.map((c) => (
            <Radio.Group
              key={c.pointer}
              label={fieldWords(doc, c.pointer)}
              value={choices[c.pointer] ?? 'mine'}
              onChange={(v) =>
                setChoices((now) => ({ ...now, [c.pointer]: v === 'theirs' ? 'theirs' : 'mine' }))
              }
            >
              <Stack gap={4} mt={4}>
                <Radio value="mine" label={`Yours: ${valueWords(c.mine)}`} />
                <Radio value="theirs" label={`${theirName}: ${valueWords(c.theirs)}`} />
              </Stack>
            </Radio.Group>
          ))}
          <Group gap="xs">
            <Button
              size="compact-sm"
              onClick={() =>
                decide(Object.fromEntries(conflicts.map((c) => [c.pointer, choices[c.pointer] ?? 'mine'])))
              }
            >
              Use these values
            </Button>
            <Button size="compact-sm" variant="light" color="red" onClick={reload}>
              {WORDS.reload}
            </Button>
          </Group>
        </Stack>
      )}
      {stale.comparison ? (
        <Stack gap="xs" mt="sm" data-testid="comparison">
          <Changes
            title={`${theirName === 'On disk' ? 'Changed on disk' : `${theirName} changed`}:`}
            changes={stale.comparison.theirs}
            doc={stale.comparison.theirsDoc}
          />
          <Changes title="You changed:" changes={stale.comparison.mine} doc={doc} />
        </Stack>
      ) : null}
    </Alert>
  );
}
