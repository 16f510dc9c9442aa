// A change set's schedule, for publishers (ChangeActions.tsx shows them): the form that sets or moves it on the site's
// clock, and the way to take a pending one back after a confirmation.
import { Button, Group, Paper, Stack, Text, TextInput } from '@mantine/core';
import { useEffect, useId, useRef, useState } from 'react';
import { instantOf, timeIn, wallTimeOf, zoneName } from './site-time.ts';

/**
 * The time is picked on the site's clock (SITE_TIMEZONE), named in the label, and read back as a sentence before it is
 * sent: the browser's own zone does not enter into it. A pending schedule's time fills it in, to be moved.
 */
export function ScheduleForm({
  busy,
  timeZone,
  current,
  onSchedule,
}: {
  busy: boolean;
  timeZone: string;
  current: string | null;
  onSchedule: (at: number) => void;
}) {
  const [value, setValue] = useState(() => (current ? wallTimeOf(Date.parse(current), timeZone) : ''));
  const picked = value ? instantOf(value, timeZone) : undefined;
  const zone = zoneName(timeZone, picked?.ok ? picked.at : Date.now());
  return (
    <Paper withBorder p="sm">
      <form
        onSubmit={(event) => {
          event.preventDefault();
          if (picked?.ok) onSchedule(picked.at);
        }}
      >
        <Group align="end">
          <TextInput
            type="datetime-local"
            label={`Publish at (${zone})`}
            description={picked?.ok ? `Publishes ${timeIn(picked.at, timeZone)}.` : undefined}
            error={
              picked?.ok === false
                ? picked.problem === 'skipped'
                  ? `That time does not happen on that day in ${zone} (the clocks move forward): pick another.`
                  : 'A date and a time.'
                : undefined
            }
            value={value}
            onChange={(event) => setValue(event.currentTarget.value)}
            required
          />
          <Button type="submit" variant="default" loading={busy}>
            {current ? 'Move the schedule' : 'Schedule'}
          </Button>
        </Group>
      </form>
    </Paper>
  );
}

/**
 * A pending schedule, and the way to take it back: a first button asks, a second one cancels (the first moves focus to
 * "Keep it", so a stray Enter keeps the schedule).
 */
export function CancelSchedule({
  at,
  timeZone,
  busy,
  onCancel,
}: {
  at: string | null;
  timeZone: string;
  busy: boolean;
  onCancel: () => void;
}) {
  const [asking, setAsking] = useState(false);
  const keep = useRef<HTMLButtonElement>(null);
  const questionId = useId();
  useEffect(() => {
    if (asking) keep.current?.focus();
  }, [asking]);
  const when = at ? timeIn(at, timeZone) : 'its time';
  return (
    <Paper withBorder p="sm">
      <Stack gap="xs">
        <Text>Publishes on its own at {when}.</Text>
        {asking ? (
          <Group>
            <Text id={questionId}>
              Cancel the publish at {when}? The change set stays approved and in review.
            </Text>
            <Button color="red" loading={busy} aria-describedby={questionId} onClick={onCancel}>
              Yes, cancel the schedule
            </Button>
            <Button ref={keep} variant="default" onClick={() => setAsking(false)}>
              Keep it
            </Button>
          </Group>
        ) : (
          <Group>
            <Button variant="default" color="red" onClick={() => setAsking(true)}>
              Cancel the schedule…
            </Button>
          </Group>
        )}
      </Stack>
    </Paper>
  );
}
