// The list's filters: status, form, a range of local dates, and a search by name or phone. The first four live in the
// list's address (list-search.ts), so a reload keeps them; the search term never does (search-term.ts).
import { Box, Button, Group, NativeSelect, Paper, SimpleGrid, TextInput } from '@mantine/core';
import { IconAdjustments, IconSearch } from '@tabler/icons-react';
import { useState, type FormEvent } from 'react';
import { LEAD_STATUSES, STATUS_LABELS, isLeadStatus } from '../../contracts/staff-api.ts';
import { FORMS } from '../forms.ts';
import type { ListFilters } from './list-search.ts';

export function Filters({ value, onChange }: { value: ListFilters; onChange: (next: ListFilters) => void }) {
  const [q, setQ] = useState(value.q ?? '');
  // On a phone the four filters fold away behind a button, so the leads start on the first screen. Which screen it is
  // is left to CSS (inbox.css, Mantine's `sm` breakpoint): a media query read in script starts as a guess, and the
  // wrong guess showed the filters open, then folding, on every phone.
  const [unfolded, setUnfolded] = useState(false);
  const setCount = [value.status, value.form, value.from, value.to].filter(Boolean).length;
  const set = (patch: Partial<Record<keyof ListFilters, string>>) => {
    const next = { ...value, ...patch, status: statusOf(patch.status ?? value.status) };
    onChange(Object.fromEntries(Object.entries(next).filter(([, v]) => v)) as ListFilters);
  };
  const submit = (event: FormEvent) => {
    event.preventDefault();
    set({ q: q.trim() });
  };
  return (
    <Paper withBorder p="md" component="section" aria-label="Filters">
      <form onSubmit={submit} role="search">
        <Button
          hiddenFrom="sm"
          variant="default"
          fullWidth
          mb={unfolded ? 'sm' : 0}
          leftSection={<IconAdjustments aria-hidden />}
          aria-expanded={unfolded}
          aria-controls="inbox-filters"
          onClick={() => setUnfolded(!unfolded)}
        >
          {setCount ? `Filters (${setCount} set)` : 'Filters'}
        </Button>
        <Box id="inbox-filters" className="inbox-filters" data-unfolded={unfolded || undefined}>
          <SimpleGrid cols={{ base: 1, xs: 2, md: 4 }} spacing="sm">
            <NativeSelect
              label="Status"
              value={value.status ?? ''}
              onChange={(event) => set({ status: event.currentTarget.value })}
              data={[
                { value: '', label: 'Any status' },
                ...LEAD_STATUSES.map((status) => ({ value: status, label: STATUS_LABELS[status] })),
              ]}
            />
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
        </Box>
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

const statusOf = (value: string | undefined) => (isLeadStatus(value) ? value : undefined);
