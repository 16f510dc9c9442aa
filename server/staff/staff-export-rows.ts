// The admins' CSV export as a spreadsheet opens it: times in the site's time zone (SITE_TIMEZONE), labels instead of
// codes (the form's name, the status as the inbox says it, a choice by its option's label), and what admissions did
// (owner, due time, first contact, each call's outcome, the notes, the lead it was merged into). The file starts with a UTF-8 byte-order mark
// (csv-stringify's `bom`), without which Excel reads accented names as Windows-1252.
import { OUTCOME_LABELS, STATUS_LABELS } from '../../contracts/staff-api.ts';
import type { FormDefinition } from '../../generated/content-types.ts';
import type { InboxLead } from '../store/contract/inbox.ts';
import type { ExportColumn } from './staff-lead-view.ts';

export const DEFAULT_TIME_ZONE = 'America/Los_Angeles';

// A formatter costs far more to make than to use: one per zone, kept.
const formats = new Map<string, Intl.DateTimeFormat>();
const formatIn = (timeZone: string): Intl.DateTimeFormat => {
  let format = formats.get(timeZone);
  if (!format)
    formats.set(
      timeZone,
      (format = new Intl.DateTimeFormat('en-US', {
        timeZone,
        year: 'numeric',
        month: '2-digit',
        day: '2-digit',
        hour: '2-digit',
        minute: '2-digit',
        hourCycle: 'h23',
      })),
    );
  return format;
};

/** `2026-01-09 04:30` in `timeZone`: what a spreadsheet sorts and a person reads. */
export function localTime(iso: string | null, timeZone: string): string {
  if (iso === null) return '';
  const parts = Object.fromEntries(
    formatIn(timeZone)
      .formatToParts(new Date(iso))
      .map((part) => [part.type, part.value]),
  );
  return `${parts.year}-${parts.month}-${parts.day} ${parts.hour}:${parts.minute}`;
}

export function exportHeader(columns: readonly ExportColumn[], timeZone: string): string[] {
  return [
    'Lead ID',
    `Received (${timeZone})`,
    'Form',
    'Status',
    'Owner',
    `Due (${timeZone})`,
    `First contact (${timeZone})`,
    'Calls',
    'Call outcomes',
    'Notes',
    'Merged into',
    ...columns.map((column) => column.label),
  ];
}

/** A field's value under its column, a choice by its option's label. */
function cellOf(lead: InboxLead, column: ExportColumn, def: FormDefinition | undefined): string {
  const name = column.names.find((candidate) => lead.fields[candidate] !== undefined);
  if (name === undefined) return '';
  const value = lead.fields[name] ?? '';
  const field = def?.fields.find((candidate) => candidate.name === name);
  return field?.options?.find((option) => option.value === value)?.label ?? value;
}

export function exportCells(
  lead: InboxLead,
  columns: readonly ExportColumn[],
  forms: ReadonlyMap<string, FormDefinition>,
  timeZone: string,
): string[] {
  const def = forms.get(lead.formId);
  return [
    lead.id,
    localTime(lead.createdAt, timeZone),
    def?.name ?? lead.formId,
    STATUS_LABELS[lead.status],
    lead.owner ?? '',
    localTime(lead.dueAt, timeZone),
    localTime(lead.firstContactAt, timeZone),
    String(lead.attempts),
    lead.calls
      .map((call) => {
        const back = call.callbackAt ? ` for ${localTime(call.callbackAt, timeZone)}` : '';
        return `${localTime(call.at, timeZone)} ${OUTCOME_LABELS[call.outcome]}${back} (${call.author})`;
      })
      .join('\n'),
    lead.notes
      .map((note) => `${localTime(note.createdAt, timeZone)} ${note.author}: ${note.text}`)
      .join('\n'),
    lead.mergedInto ?? '',
    ...columns.map((column) => cellOf(lead, column, def)),
  ];
}
