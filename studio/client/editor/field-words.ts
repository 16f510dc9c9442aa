// A field and its value in words for staff, instead of a JSON pointer and JSON: "Block 2 (FAQ “Questions”) › Items
// › 1 › Answer" and "Five to seven days." The conflict view and the save dialog show changes this way.
import { isRecord, segmentsOf, valueAt, type Json } from '../../../content/json-pointer.ts';
import { blockTypeLabel, fieldLabel as labelOf } from '../../../content/labels.ts';
import { blockLabel } from './Outline.tsx';

/** Where a pointer leads in `doc`, in words. */
export function fieldWords(doc: unknown, pointer: string): string {
  const segments = segmentsOf(pointer);
  if (segments.length === 0) return 'The whole document';
  const words: string[] = [];
  for (let k = 0; k < segments.length; k++) {
    const segment = segments[k]!;
    if (k === 1 && segments[0] === 'blocks' && /^\d+$/.test(segment)) {
      const { type, heading } = blockLabel(valueAt(doc, `/blocks/${segment}`) as Json | undefined);
      words.splice(
        0,
        1,
        `Block ${Number(segment) + 1} (${blockTypeLabel(type)}${heading ? ` “${heading}”` : ''})`,
      );
    } else words.push(/^\d+$/.test(segment) ? String(Number(segment) + 1) : labelOf(segment));
  }
  return words.join(' › ');
}

/** A value in words: text as it is, a list by its length, a group by its fields (one level), nothing as "(empty)". */
export function valueWords(value: Json | undefined): string {
  if (value === undefined) return '(removed)';
  if (value === null || value === '') return '(empty)';
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (typeof value !== 'object') return String(value);
  if (Array.isArray(value))
    return value.every((v) => typeof v === 'string')
      ? value.join('; ')
      : `${value.length} item${value.length === 1 ? '' : 's'}${value[0] === undefined ? '' : ` (the first: ${valueWords(value[0])})`}`;
  if (isRecord(value))
    return Object.entries(value)
      .map(
        ([key, v]) =>
          `${labelOf(key)}: ${typeof v === 'object' && v !== null ? valueWords(v) : valueWords(v)}`,
      )
      .join('; ');
  return '';
}
