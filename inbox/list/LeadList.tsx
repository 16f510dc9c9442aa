// The list: newest first, a page at a time ("Load more"), with the filters in the address. New leads arrive from
// the event stream and are announced politely to screen readers, with a count only: never a sound, and never a
// notification or announcement carrying a name.
import { Alert, Anchor, Button, Group, Stack, Text, Title } from '@mantine/core';
import { IconDownload } from '@tabler/icons-react';
import { useNavigate } from '@tanstack/react-router';
import { useCallback, useEffect, useRef, useState } from 'react';
import type { ListedLead } from '../../contracts/staff-api.ts';
import { api, csvHref } from '../api.ts';
import { listRoute } from '../router.tsx';
import { useSession } from '../session.tsx';
import { Filters, toApiFilter, type ListSearch } from './Filters.tsx';
import { LeadCard } from './LeadCard.tsx';
import { useNewLeads } from './use-new-leads.ts';

export function LeadList() {
  const search = listRoute.useSearch();
  const navigate = useNavigate({ from: '/' });
  const { me } = useSession();
  const [leads, setLeads] = useState<ListedLead[]>();
  const [next, setNext] = useState<string | null>(null);
  const [problem, setProblem] = useState<string>();
  const [loadingMore, setLoadingMore] = useState(false);
  const [announcement, setAnnouncement] = useState('');
  const filter = toApiFilter(search);
  const filterKey = JSON.stringify(filter);

  useEffect(() => {
    let current = true;
    setLeads(undefined);
    setProblem(undefined);
    api
      .leads(JSON.parse(filterKey) as typeof filter)
      .then((page) => {
        if (!current) return;
        setLeads(page.leads);
        setNext(page.next);
      })
      .catch((error: Error) => current && setProblem(error.message));
    return () => {
      current = false;
    };
  }, [filterKey]);

  const loadMore = async () => {
    if (!next) return;
    setLoadingMore(true);
    try {
      const page = await api.leads(filter, next);
      setLeads((shown) => [...(shown ?? []), ...page.leads]);
      setNext(page.next);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setLoadingMore(false);
    }
  };

  // A new lead: the first page again, and whatever in it is not shown yet goes on top.
  const shown = useRef<ListedLead[] | undefined>(undefined);
  shown.current = leads;
  const onLead = useCallback(() => {
    void api
      .leads(JSON.parse(filterKey) as typeof filter)
      .then((page) => {
        const known = new Set((shown.current ?? []).map((lead) => lead.id));
        const added = page.leads.filter((lead) => !known.has(lead.id));
        if (added.length === 0) return;
        setLeads((current) => [...added, ...(current ?? [])]);
        setAnnouncement(added.length === 1 ? '1 new lead' : `${added.length} new leads`);
      })
      .catch(() => undefined);
  }, [filterKey]);
  useNewLeads(onLead);

  const setSearch = (next: ListSearch) => void navigate({ search: next, replace: true });

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>Leads</Title>
        {me?.admin && (
          <Button
            component="a"
            href={csvHref(filter)}
            download
            variant="default"
            leftSection={<IconDownload aria-hidden />}
          >
            Export CSV
          </Button>
        )}
      </Group>
      <Filters key={search.q ?? ''} value={search} onChange={setSearch} />
      <div aria-live="polite" role="status" className="inbox-visually-hidden">
        {announcement}
      </div>
      {problem && (
        <Alert color="red" role="alert" title="The leads could not be loaded">
          {problem}
        </Alert>
      )}
      {leads === undefined && !problem && <Text>Loading leads…</Text>}
      {leads?.length === 0 && <Text>No leads match these filters.</Text>}
      {leads && leads.length > 0 && (
        <ul className="inbox-leads" aria-label="Leads, newest first">
          {leads.map((lead) => (
            <LeadCard key={lead.id} lead={lead} />
          ))}
        </ul>
      )}
      {next && (
        <Group justify="center">
          <Button variant="default" loading={loadingMore} onClick={() => void loadMore()}>
            Load more
          </Button>
        </Group>
      )}
      {leads && (
        <Text size="sm" c="dimmed">
          {leads.length} shown.{' '}
          {Object.values(search).some(Boolean) && (
            <Anchor component="button" type="button" onClick={() => setSearch({})}>
              Clear the filters
            </Anchor>
          )}
        </Text>
      )}
    </Stack>
  );
}
