// Leads as staff read them (`npm run leads`): a table, JSON lines, one lead in full, CSV. Values here are opened
// (decrypted): this is for the terminal of someone allowed to see them, never for a log or a chat message.
import { stringify } from 'csv-stringify/sync';
import { personName } from '../../../core/person-name.ts';
import type { FormDefinition } from '../../../generated/content-types.ts';
import type { AlertState, ListedLead, StoredLead } from '../contract/lead-store.ts';

const TABLE_COLUMNS = ['Received (UTC)', 'Form', 'Name', 'Phone', 'Alert', 'Lead ID'] as const;

/** `2026-01-08 17:30`: minutes are enough to find a lead, and a fixed width keeps the table straight. */
const shortTime = (iso: string): string => iso.slice(0, 16).replace('T', ' ');

/** Control characters a visitor typed must not move the cursor or recolour the staff member's terminal. */
const printable = (text: string): string => text.replace(/[\u0000-\u001f\u007f-\u009f]/g, ' ');

/** An aligned plain-text table of the leads, one line each; health details and messages are left to `show`. */
export function leadsTable(leads: readonly ListedLead[]): string {
  if (leads.length === 0) return 'No leads.\n';
  const rows = leads.map((lead) =>
    [
      shortTime(lead.createdAt),
      lead.formId,
      personName(lead.data),
      lead.data.phone ?? '',
      lead.alert,
      lead.id,
    ].map(printable),
  );
  const widths = TABLE_COLUMNS.map((title, column) =>
    Math.max(title.length, ...rows.map((row) => row[column]?.length ?? 0)),
  );
  const line = (cells: readonly string[]) =>
    cells
      .map((cell, column) => cell.padEnd(widths[column] ?? 0))
      .join('  ')
      .trimEnd();
  const count = `${leads.length} lead${leads.length === 1 ? '' : 's'}`;
  return [
    line(TABLE_COLUMNS),
    line(widths.map((width) => '-'.repeat(width))),
    ...rows.map(line),
    count,
    '',
  ].join('\n');
}

/**
 * One JSON object per line: the submitted fields, then id, formId, createdAt, source and alert (which win over a field
 * of the same name, so a script can always rely on them).
 */
export const leadsJsonLines = (leads: readonly ListedLead[]): string =>
  leads
    .map((lead) =>
      JSON.stringify({
        ...lead.data,
        id: lead.id,
        formId: lead.formId,
        createdAt: lead.createdAt,
        source: lead.source,
        alert: lead.alert,
      }),
    )
    .join('\n') + (leads.length > 0 ? '\n' : '');

/** One lead in full: every field under its label (when the form is still defined), and the state of its alert. */
export function leadDetails(
  lead: StoredLead,
  alert: AlertState | undefined,
  def: FormDefinition | undefined,
): string {
  const fieldsOf = def?.fields ?? [];
  const known = fieldsOf.filter((field) => lead.data[field.name] !== undefined);
  const knownNames = new Set(known.map((field) => field.name));
  const entries: [string, string][] = [
    ['Lead ID', lead.id],
    ['Form', def ? `${def.name} (${lead.formId})` : lead.formId],
    ['Received', lead.createdAt],
    ['Source page', lead.source],
    ...known.map((field): [string, string] => {
      const value = lead.data[field.name] ?? '';
      const option = field.options?.find((choice) => choice.value === value);
      return [field.label, option ? `${option.label} (${value})` : value];
    }),
    ...Object.entries(lead.data).filter(([name]) => !knownNames.has(name)),
    ['Alert', alert ? alertSummary(alert) : 'none'],
  ];
  if (alert?.lastError) entries.push(['Last alert error', alert.lastError]);
  const width = Math.max(...entries.map(([label]) => label.length));
  return `${entries.map(([label, value]) => `${`${label}:`.padEnd(width + 2)}${printable(value)}`).join('\n')}\n`;
}

function alertSummary(alert: AlertState): string {
  const tries = `${alert.attempts} attempt${alert.attempts === 1 ? '' : 's'}`;
  if (alert.status === 'delivered') return `delivered ${alert.deliveredAt ?? ''} (${tries})`;
  if (alert.status === 'dead')
    return `dead after ${tries}: run \`npm run leads -- retry-dead\` to send it again`;
  return `pending (${tries}; next try ${new Date(alert.nextAttemptAt).toISOString()})`;
}

// A cell starting with one of these is run as a formula by spreadsheet programs; visitors wrote these values.
const FORMULA_START = /^[=+\-@\t\r]/;
/** A cell a spreadsheet shows as text, never runs (this CLI's export and the inbox's). */
export const safeCell = (value: string): string => (FORMULA_START.test(value) ? `'${value}` : value);

/** Every lead as CSV with a header row: the fixed columns, then each field name in the order first met. */
export function leadsCsv(leads: readonly ListedLead[]): string {
  const fieldNames = [...new Set(leads.flatMap((lead) => Object.keys(lead.data)))];
  const fixed = ['id', 'formId', 'createdAt', 'source', 'alert'] as const;
  const rows = leads.map((lead) => [
    lead.id,
    lead.formId,
    lead.createdAt,
    lead.source,
    lead.alert,
    ...fieldNames.map((name) => lead.data[name] ?? ''),
  ]);
  return stringify([[...fixed, ...fieldNames], ...rows.map((row) => row.map(safeCell))], {
    record_delimiter: 'windows',
  });
}
