// Speed to lead, for admins: per form and per week of the site's time zone, the promises the forms made, the share
// kept (first contact at or before the promised time), and the median time to first contact. Counts only: no patient
// data. Each view is in the audit log.
import { Alert, NativeSelect, Stack, Table, Text, Title } from '@mantine/core';
import { getRouteApi } from '@tanstack/react-router';
import { Suspense, use, useState } from 'react';
import type { SpeedToLeadReport, SpeedToLeadRow } from '../../contracts/staff-admin.ts';
import type { Loaded } from '../loaded.ts';
import { settle } from '../loaded.ts';
import { useSession } from '../session.ts';
import { adminApi, DEFAULT_WEEKS } from './admin-api.ts';

const reportApi = getRouteApi('/speed-to-lead');
const WEEKS = [4, 8, 13, 26, 52];

const share = (value: number | null) => (value === null ? '–' : `${Math.round(value * 100)}%`);
const minutes = (value: number | null) =>
  value === null ? '–' : value < 90 ? `${value} min` : `${Math.round((value / 60) * 10) / 10} h`;
const weekOf = (monday: string) =>
  new Date(`${monday}T12:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

export function SpeedToLead() {
  const { me } = useSession();
  const { report } = reportApi.useLoaderData();
  const [shown, setShown] = useState<{ weeks: number; report: Promise<Loaded<SpeedToLeadReport>> }>();
  if (!me?.admin || !report)
    return (
      <Alert color="red" role="alert" title="Admins only">
        Only admins can read the speed-to-lead report.
      </Alert>
    );
  const weeks = shown?.weeks ?? DEFAULT_WEEKS;
  return (
    <Stack>
      <Title order={1}>Speed to lead</Title>
      <Text>
        Each request is a promise: the form says when admissions will call. Kept means the first contact came
        at or before that time; open means it has not fallen due yet.
      </Text>
      <NativeSelect
        label="Weeks shown"
        value={String(weeks)}
        onChange={(event) => {
          const value = Number(event.currentTarget.value);
          setShown({ weeks: value, report: settle(adminApi.speedToLead(value)) });
        }}
        data={WEEKS.map((count) => ({ value: String(count), label: `The last ${count} weeks` }))}
        maw={240}
      />
      <Suspense key={weeks} fallback={<Text>Loading the report…</Text>}>
        <Report found={shown?.report ?? report} />
      </Suspense>
    </Stack>
  );
}

function Report({ found }: { found: Promise<Loaded<SpeedToLeadReport>> }) {
  const [initial] = useState(found);
  const loaded = use(initial);
  if (!loaded.ok)
    return (
      <Alert color="red" role="alert" title="The report could not be loaded">
        {loaded.problem}
      </Alert>
    );
  const { rows, timeZone } = loaded.value;
  if (rows.length === 0) return <Text>No requests arrived in these weeks.</Text>;
  return (
    <div className="inbox-scroll" tabIndex={0} role="region" aria-label="Speed to lead by week and form">
      <Table striped>
        <Table.Caption>Weeks from Monday, in {timeZone}; newest first.</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Week of</Table.Th>
            <Table.Th>Form</Table.Th>
            <Table.Th>Promises</Table.Th>
            <Table.Th>Kept</Table.Th>
            <Table.Th>Missed</Table.Th>
            <Table.Th>Open</Table.Th>
            <Table.Th>Share kept</Table.Th>
            <Table.Th>Median to first contact</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row: SpeedToLeadRow) => (
            <Table.Tr key={`${row.week} ${row.formId}`}>
              <Table.Td>{weekOf(row.week)}</Table.Td>
              <Table.Td>{row.formName}</Table.Td>
              <Table.Td>{row.promises}</Table.Td>
              <Table.Td>{row.kept}</Table.Td>
              <Table.Td>{row.missed}</Table.Td>
              <Table.Td>{row.open}</Table.Td>
              <Table.Td>{share(row.keptShare)}</Table.Td>
              <Table.Td>{minutes(row.medianMinutesToContact)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
