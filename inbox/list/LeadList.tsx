// The list: "needs action" (soonest due first) or all leads but the closed (newest first), a page at a time ("Load
// more"), with the filters and the sort in the address and the search term in memory only (search-term.ts). A sort the
// server does not give (urgency, which is sealed; due time in "all"; arrival in "needs action") is made here, among the
// leads loaded, and the list says so. Its route's loader asks for the first page of the filters. New leads arrive from the
// event stream, and the list asks for its first page again on its own (a background request: it neither keeps the
// session alive nor counts as the member's read); what is new in that page goes on top and is announced politely to
// screen readers, with a count only: never a sound, and never a notification or announcement carrying a name.
import { Alert, Anchor, Button, Group, SegmentedControl, Stack, Text, Title } from '@mantine/core';
import { IconAdjustments, IconDownload } from '@tabler/icons-react';
import { getRouteApi, useRouter } from '@tanstack/react-router';
import { Suspense, use, useCallback, useEffect, useRef, useState } from 'react';
import type { LeadFilter, LeadsPage, ListedLead } from '../../contracts/staff-api.ts';
import { api, csvHref } from '../api.ts';
import type { Loaded } from '../loaded.ts';
import { useSession } from '../session.ts';
import { Filters } from './Filters.tsx';
import { LeadCard } from './LeadCard.tsx';
import { serverSort, type ListFilters, type ListSort } from './list-search.ts';
import { urgencyRank } from './urgency.ts';
import { useCurrency } from '../desk/currency.ts';
import { searchTerm, setSearchTerm } from './search-term.ts';
import { useNewLeads } from './use-new-leads.ts';
import { useNow } from '../desk/use-now.ts';
import { eventWithin } from '../desk/desk-stream.ts';

const listApi = getRouteApi('/');

export function LeadList() {
  const search = listApi.useSearch();
  // The filters this page was loaded with: the address's, and the search term from memory.
  const { firstPage, filter } = listApi.useLoaderData();
  const navigate = listApi.useNavigate();
  const { me } = useSession();
  const [announcement, setAnnouncement] = useState('');
  const sort: ListSort = search.sort ?? serverSort(search.view);
  // On a phone everything but the view folds away behind a button (inbox.css decides which screen: a media query read
  // in script starts as a guess, and a wrong guess showed the filters open, then folding, on every phone).
  const [unfolded, setUnfolded] = useState(false);
  const setCount = [
    search.owner,
    search.sort,
    search.status,
    search.form,
    search.from,
    search.to,
    searchTerm(),
  ].filter(Boolean).length;

  const announceNew = useCallback(
    (count: number) => setAnnouncement(count === 1 ? '1 new lead' : `${count} new leads`),
    [],
  );
  const router = useRouter();
  const q = searchTerm();
  const setSearch = ({ q: term, ...next }: ListFilters) => {
    const searchChanged = (term ?? '') !== (q ?? '');
    setSearchTerm(term);
    if (JSON.stringify(next) !== JSON.stringify(search)) void navigate({ search: next, replace: true });
    // Only the term changed: the address stays as it is, and the list loads again with the new term.
    else if (searchChanged) void router.invalidate();
  };

  return (
    <Stack>
      <Group justify="space-between" align="center">
        <Title order={1}>Leads</Title>
        {me?.admin && (
          <Button
            component="a"
            // The export is a record: with no status picked it holds the closed leads too, which the list leaves out.
            href={csvHref({ ...filter, status: search.status })}
            download
            variant="default"
            leftSection={<IconDownload aria-hidden />}
          >
            Export CSV
          </Button>
        )}
      </Group>
      {me?.admin && filter.q && (
        <Text size="sm" c="dimmed">
          The export takes the filters but not the search: it lists every lead the filters match.
        </Text>
      )}
      {/* On a phone, the view and a button for the rest: the leads start on the first screen (four cards and more). */}
      <Group gap="sm" wrap="nowrap" justify="space-between">
        <SegmentedControl
          aria-label="Which leads"
          value={search.view ?? 'needs-action'}
          onChange={(view) => setSearch({ ...search, q: filter.q, view: view === 'all' ? 'all' : undefined })}
          data={[
            { value: 'needs-action', label: 'Needs action' },
            { value: 'all', label: 'All leads' },
          ]}
        />
        <Button
          hiddenFrom="sm"
          variant="default"
          leftSection={<IconAdjustments aria-hidden />}
          aria-expanded={unfolded}
          aria-controls="inbox-triage"
          onClick={() => setUnfolded(!unfolded)}
        >
          {setCount ? `Filters (${setCount})` : 'Filters'}
        </Button>
      </Group>
      <Stack id="inbox-triage" className="inbox-filters" data-unfolded={unfolded || undefined} gap="sm">
        <Group gap="sm" wrap="wrap">
          <SegmentedControl
            aria-label="Whose leads"
            value={search.owner ?? 'anyone'}
            onChange={(owner) =>
              setSearch({
                ...search,
                q: filter.q,
                owner: owner === 'mine' || owner === 'unassigned' ? owner : undefined,
              })
            }
            data={[
              { value: 'anyone', label: 'Anyone' },
              { value: 'mine', label: 'Mine' },
              { value: 'unassigned', label: 'Unassigned' },
            ]}
          />
          <SegmentedControl
            aria-label="Sort by"
            value={sort}
            onChange={(value) =>
              setSearch({
                ...search,
                q: filter.q,
                sort: value === 'due' || value === 'urgency' || value === 'arrival' ? value : undefined,
              })
            }
            data={[
              { value: 'due', label: 'Due' },
              { value: 'urgency', label: 'Urgency' },
              { value: 'arrival', label: 'Newest' },
            ]}
          />
        </Group>
        <Filters key={filter.q ?? ''} value={{ ...search, q: filter.q }} onChange={setSearch} />
      </Stack>
      <div aria-live="polite" role="status" className="inbox-visually-hidden">
        {announcement}
      </div>
      {/* Other filters, other leads: loaded afresh, with the loading text meanwhile. */}
      <Suspense key={JSON.stringify(filter)} fallback={<Text>Loading leads…</Text>}>
        <ShownLeads
          firstPage={firstPage}
          filter={filter}
          sort={sort}
          serverSorted={sort === serverSort(search.view) && !filter.q}
          filtered={
            Object.entries(search).some(
              ([key, value]) => key !== 'view' && key !== 'sort' && Boolean(value),
            ) || Boolean(filter.q)
          }
          onNew={announceNew}
          onClear={() => setSearch({})}
        />
      </Suspense>
    </Stack>
  );
}

/** Soonest due first (nothing due last), most pressing first (then soonest due), or newest first. */
function sorted(leads: readonly ListedLead[], sort: ListSort): ListedLead[] {
  const byDue = (a: ListedLead, b: ListedLead) =>
    Number(b.due) - Number(a.due) || a.dueAt.localeCompare(b.dueAt) || a.id.localeCompare(b.id);
  if (sort === 'due') return [...leads].sort(byDue);
  if (sort === 'urgency') return [...leads].sort((a, b) => urgencyRank(a) - urgencyRank(b) || byDue(a, b));
  return [...leads].sort((a, b) => b.createdAt.localeCompare(a.createdAt) || b.id.localeCompare(a.id));
}

const SORT_WORDS: Record<ListSort, string> = {
  due: 'soonest due first',
  urgency: 'most urgent first',
  arrival: 'newest first',
};

function ShownLeads(props: {
  firstPage: Promise<Loaded<LeadsPage>>;
  filter: LeadFilter;
  sort: ListSort;
  /** The server's own order: across every page, not only the loaded ones. */
  serverSorted: boolean;
  filtered: boolean;
  onNew: (count: number) => void;
  onClear: () => void;
}) {
  const { firstPage, filter, onNew } = props;
  // The first page of these filters; the loader's later answers (after a new lead) are merged in below.
  const [initial] = useState(firstPage);
  const loaded = use(initial);
  const [leads, setLeads] = useState<ListedLead[] | undefined>(loaded.ok ? loaded.value.leads : undefined);
  const [next, setNext] = useState<string | null>(loaded.ok ? loaded.value.next : null);
  const [problem, setProblem] = useState<string | undefined>(loaded.ok ? undefined : loaded.problem);
  const [loadingMore, setLoadingMore] = useState(false);
  const [fresh, setFresh] = useState<ReadonlySet<string>>(new Set());
  const now = useNow();
  const currency = useCurrency();
  const asOf = currency.state === 'live' ? undefined : currency.asOf;
  const queue = filter.view === 'needs-action';
  // Kept in the order they came; shown in the chosen one, so leads that come and change take their place at once.
  const shownLeads = leads && sorted(leads, props.sort);

  // The first page again (a new lead, or the route loaded again): whatever in it is not shown yet goes on top.
  const shown = useRef(leads);
  shown.current = leads;
  const addNew = useCallback(
    (page: LeadsPage) => {
      const known = new Set((shown.current ?? []).map((lead) => lead.id));
      const added = page.leads.filter((lead) => !known.has(lead.id));
      if (added.length === 0) return;
      // Two answers in one tick (the route's, and one asked on its own) must not show a lead twice: known at once.
      shown.current = [...added, ...(shown.current ?? [])];
      setLeads((current) => {
        const ids = new Set((current ?? []).map((lead) => lead.id));
        return [...added.filter((lead) => !ids.has(lead.id)), ...(current ?? [])];
      });
      setFresh((current) => new Set([...current, ...added.map((lead) => lead.id)]));
      onNew(added.length);
    },
    [onNew],
  );
  /** A lead changed (by anyone): its fresh state from the first page; gone from the queue once nothing is due. */
  const update = useCallback(
    (page: LeadsPage, id: string) => {
      const found = page.leads.find((lead) => lead.id === id);
      setLeads((current) => {
        const list = current ?? [];
        if (!found) return queue ? list.filter((lead) => lead.id !== id) : list;
        const known = list.some((lead) => lead.id === id);
        return known ? list.map((lead) => (lead.id === id ? found : lead)) : [found, ...list];
      });
    },
    [queue],
  );
  const replace = (changed: ListedLead) =>
    setLeads((current) => (current ?? []).map((lead) => (lead.id === changed.id ? changed : lead)));

  useEffect(() => {
    if (firstPage === initial) return;
    void firstPage.then((again) => again.ok && addNew(again.value));
  }, [firstPage, initial, addNew]);
  // A failure shows nothing here: a 401 signs the app out (api.ts), anything else waits for the next lead.
  // A lead that came while this list was loading: asked again once, on its own.
  useEffect(() => {
    if (eventWithin(30_000))
      void api.leads(filter, undefined, { background: true }).then(addNew, () => undefined);
  }, []);
  useNewLeads(
    () => void api.leads(filter, undefined, { background: true }).then(addNew, () => undefined),
    (id) =>
      void api.leads(filter, undefined, { background: true }).then(
        (page) => update(page, id),
        () => undefined,
      ),
  );

  const loadMore = async () => {
    if (!next) return;
    setLoadingMore(true);
    try {
      const page = await api.leads(filter, next);
      setLeads((current) => [...(current ?? []), ...page.leads]);
      setNext(page.next);
    } catch (error) {
      setProblem(error instanceof Error ? error.message : String(error));
    } finally {
      setLoadingMore(false);
    }
  };

  return (
    <>
      {problem && (
        <Alert color="red" role="alert" title="The leads could not be loaded">
          {problem}
        </Alert>
      )}
      {leads?.length === 0 && <Text>No leads match these filters.</Text>}
      {leads && leads.length > 0 && (
        <>
          {!props.serverSorted && (
            <Text size="sm" c="dimmed">
              {props.sort === 'urgency'
                ? 'Sorted by urgency among the leads loaded on this page: urgency is stored encrypted, so the server cannot sort by it.'
                : `Sorted ${SORT_WORDS[props.sort]} among the leads loaded on this page.`}
              {next && ' "Load more" adds more, each in its place.'}
            </Text>
          )}
          <ul
            className="inbox-leads"
            data-stale={asOf === undefined ? undefined : true}
            aria-label={`${queue ? 'Leads needing action' : 'Leads'}, ${SORT_WORDS[props.sort]}${asOf === undefined ? '' : ', not current'}`}
          >
            {(shownLeads ?? []).map((lead) => (
              <LeadCard
                key={lead.id}
                lead={lead}
                now={now}
                asOf={asOf}
                fresh={fresh.has(lead.id)}
                onChanged={replace}
              />
            ))}
          </ul>
        </>
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
          {props.filtered && (
            <Anchor component="button" type="button" onClick={props.onClear}>
              Clear the filters
            </Anchor>
          )}
        </Text>
      )}
    </>
  );
}
