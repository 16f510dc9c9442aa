// The list's filters: statuses (several at once), form, a range of local dates, and a search by name or phone. The
// first four live in the list's address (list-search.ts), so a reload keeps them; the search term never does
// (search-term.ts). With no status picked, closed leads stay out of the list. On a phone they fold away with the
// list's other controls (LeadList.tsx).
import {
  Button,
  Chip,
  Fieldset,
  Group,
  NativeSelect,
  Paper,
  SimpleGrid,
  Text,
  TextInput,
} from '@mantine/core';
import { IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { LEAD_STATUSES, STATUS_LABELS } from '../../contracts/staff-api.ts';
import { FORMS } from '../forms.ts';
import { statusesOf, type ListFilters } from './list-search.ts';

export function Filters({ value, onChange }: { value: ListFilters; onChange: (next: ListFilters) => void }) {
  const [q, setQ] = useState(value.q ?? '');
  const set = (patch: Partial<Record<keyof ListFilters, string>>) => {
    const next = { ...value, ...patch, status: statusesOf(patch.status ?? value.status).join(',') };
    onChange(Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as ListFilters);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: q.trim() });
  };
  return (
    <Paper withBorder p="md" component="section" aria-label="Filters">
      <form onSubmit={submit} role="search">
        <Chip.Group
          multiple
          value={statusesOf(value.status)}
          onChange={(picked) => set({ status: picked.join(',') })}
        >
          <Fieldset legend="Status" variant="unstyled" mb="sm" className="inbox-statuses">
            <Group gap="xs">
              {LEAD_STATUSES.map((status) => (
                <Chip key={status} value={status} size="sm">
                  {STATUS_LABELS[status]}
                </Chip>
              ))}
            </Group>
            {!value.status && (
              <Text size="sm" c="dimmed" mt={4}>
                None picked: every status but Closed.
              </Text>
            )}
          </Fieldset>
        </Chip.Group>
        <SimpleGrid cols={{ base: 1, xs: 3 }} spacing="sm">
          <NativeSelect
            label="Form"
            value={value.form ?? ''}
            onChange={(event) => set({ form: event.currentTarget.value })}
            data={[
              { value: '', label: 'Any form' },
              ...FORMS.map((form) => ({ value: form.id, label: form.name })),
            ]}
          />
          <TextInput
            type="date"
            label="Received from"
            value={value.from ?? ''}
            onChange={(event) => set({ from: event.currentTarget.value })}
          />
          <TextInput
            type="date"
            label="Received to (that day included)"
            value={value.to ?? ''}
            onChange={(event) => set({ to: event.currentTarget.value })}
          />
        </SimpleGrid>
        <Group mt="sm" align="flex-end" wrap="nowrap" gap="sm">
          <TextInput
            className="inbox-grow"
            type="search"
            label="Search by name or phone"
            description="Matches whole names or their first letters (three or more), a full phone number, or its last 4 digits."
            value={q}
            onChange={(event) => setQ(event.currentTarget.value)}
          />
          <Button type="submit" leftSection={<IconSearch aria-hidden />}>
            Search
          </Button>
        </Group>
      </form>
    </Paper>
  );
}
