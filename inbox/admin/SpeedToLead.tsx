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

const COLUMNS = [
  'Week of',
  'Form',
  'Promises',
  'Kept',
  'Missed',
  'Open',
  'Share kept',
  'Median to first contact',
] as const;

/** A row's cells in COLUMNS' order: the table and the cards say the same. */
const cells = (row: SpeedToLeadRow): string[] => [
  weekOf(row.week),
  row.formName,
  String(row.promises),
  String(row.kept),
  String(row.missed),
  String(row.open),
  share(row.keptShare),
  minutes(row.medianMinutesToContact),
];

/** A week and form on a phone: named by both, the other six figures as a list of terms and values. */
function ReportCard({ row }: { row: SpeedToLeadRow }) {
  const [week, form, ...figures] = cells(row);
  const name = `Week of ${week}, ${form}`;
  return (
    <article className="inbox-report-card" aria-label={name}>
      <Text fw={600}>{name}</Text>
      <dl>
        {figures.map((figure, index) => (
          <div key={COLUMNS[index + 2]}>
            <dt>{COLUMNS[index + 2]}</dt>
            <dd>{figure}</dd>
          </div>
        ))}
      </dl>
    </article>
  );
}

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
  const footnote = `Weeks from Monday, in ${timeZone}; newest first.`;
  // One region, two layouts of the same numbers: a card per week and form on a phone, where eight columns cannot fit
  // 390 px, and the table on wider screens. CSS shows one (display: none keeps the other from screen readers too).
  return (
    <div className="inbox-report" tabIndex={0} role="region" aria-label="Speed to lead by week and form">
      <div className="inbox-report-cards">
        <Text size="sm">{footnote}</Text>
        {rows.map((row: SpeedToLeadRow) => (
          <ReportCard key={`${row.week} ${row.formId}`} row={row} />
        ))}
      </div>
      <Table striped className="inbox-report-table">
        <Table.Caption>{footnote}</Table.Caption>
        <Table.Thead>
          <Table.Tr>
            {COLUMNS.map((column) => (
              <Table.Th key={column}>{column}</Table.Th>
            ))}
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {rows.map((row: SpeedToLeadRow) => (
            <Table.Tr key={`${row.week} ${row.formId}`}>
              {cells(row).map((cell, index) => (
                <Table.Td key={COLUMNS[index]}>{cell}</Table.Td>
              ))}
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
    </div>
  );
}
