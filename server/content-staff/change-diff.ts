// A change set's documents, field by field, for reviewers (issue #28, item 4): each value changed, added, removed or
// moved (content/claims/diff.ts, the same walk that decides which approvals a set needs), named in the content model's
// plain labels (content/labels.ts: "Timeline (block 5) › Items, item 1 › Duration", not /blocks/4/items/0/duration), with its claim kind,
// and the value before and after, as text. The JSON pointer is kept for comments on the field.
import type { DocumentDiff } from '../../contracts/content-api.ts';
import { claimChanges } from '../../content/claims/diff.ts';
import { blockTypeLabel, fieldLabel } from '../../content/labels.ts';
import { segmentsOf, valueAt } from '../../content/json-pointer.ts';
import { kindOf } from '../../content/kinds.ts';
import { REDIRECTS_FILE } from '../../content/page-actions.ts';
import { pagePath } from '../../core/page-paths.ts';
import type { ChangeDocument } from '../store/contract/change-store.ts';
import { overlay } from './live-content.ts';

type Document = Pick<ChangeDocument, 'path' | 'baseText' | 'text'>;

const parsed = (text: string | null): unknown => (text === null ? undefined : (JSON.parse(text) as unknown));

/** A pointer in words: a block by its type ("Timeline 5"), an item by its number, a field by its label. */
export function fieldWords(document: unknown, pointer: string): string {
  const parts = segmentsOf(pointer);
  const words: string[] = [];
  let node: unknown = document;
  for (let index = 0; index < parts.length; index += 1) {
    const part = parts[index] ?? '';
    const next = parts[index + 1];
    const child =
      node !== null && typeof node === 'object' ? (node as Record<string, unknown>)[part] : undefined;
    if (next !== undefined && /^\d+$/.test(next) && Array.isArray(child)) {
      const item: unknown = child[Number(next)];
      const type =
        item !== null && typeof item === 'object' ? (item as Record<string, unknown>).type : undefined;
      words.push(
        part === 'blocks' && typeof type === 'string'
          ? `${blockTypeLabel(type)} (block ${Number(next) + 1})`
          : `${fieldLabel(part)}, item ${Number(next) + 1}`,
      );
      node = item;
      index += 1;
    } else {
      words.push(/^\d+$/.test(part) ? `item ${Number(part) + 1}` : fieldLabel(part));
      node = child;
    }
  }
  return words.join(' › ') || 'The whole document';
}

/** A value as a reviewer reads it: text as is, numbers and yes/no plainly, a group as "label: value" lines. */
export function valueText(value: unknown): string | null {
  if (value === undefined) return null;
  if (value === null) return '(empty)';
  if (typeof value === 'string') return value;
  if (typeof value === 'number') return String(value);
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (Array.isArray(value)) return value.map((item) => `• ${valueText(item) ?? ''}`).join('\n');
  return Object.entries(value as Record<string, unknown>)
    .map(([key, inner]) => `${fieldLabel(key)}: ${valueText(inner) ?? ''}`)
    .join('\n');
}

/** The same content, whatever its formatting (a move saves the page as the API writes JSON). */
const sameContent = (a: string | null, b: string | null): boolean =>
  a !== null && b !== null && JSON.stringify(JSON.parse(a)) === JSON.stringify(JSON.parse(b));

/**
 * What the set does to pages as a whole, in words, by document path: a page deleted (and where its address leads once
 * the set is published: the redirects as the set makes them over `live`), moved (deleted here, the same content
 * created there), or created. Other documents have none.
 */
export function pageSummaries(
  documents: readonly Document[],
  live: ReadonlyMap<string, string>,
): Map<string, string> {
  const redirectsText = overlay(live, documents).find((d) => d.path === REDIRECTS_FILE)?.text;
  const rules = redirectsText
    ? ((JSON.parse(redirectsText) as { redirects?: { from: string[]; to: string }[] }).redirects ?? [])
    : [];
  const leadsTo = (path: string) => rules.find((rule) => rule.from.includes(path))?.to;
  const pages = documents.filter((d) => d.path.startsWith('pages/'));
  const summaries = new Map<string, string>();
  for (const gone of pages.filter((d) => d.text === null && d.baseText !== null)) {
    const from = pagePath(gone.path);
    const to = leadsTo(from);
    const movedTo = pages.find((d) => d.baseText === null && sameContent(d.text, gone.baseText));
    if (movedTo) {
      const at = pagePath(movedTo.path);
      summaries.set(movedTo.path, `Moved here from ${from}, unchanged`);
      summaries.set(
        gone.path,
        `Moved to ${at}${to ? `; ${from} redirects to ${to}` : `; ${from} is not redirected`}`,
      );
    } else
      summaries.set(
        gone.path,
        to ? `Deleted, redirected to ${to}` : `Deleted; ${from} is not redirected, and leads nowhere`,
      );
  }
  for (const made of pages.filter((d) => d.baseText === null && d.text !== null))
    if (!summaries.has(made.path)) summaries.set(made.path, `New page at ${pagePath(made.path)}`);
  return summaries;
}

/** One document's changes for review; `summary` from pageSummaries. A deleted page, or one moved unchanged, lists
 * no fields: its summary says it all (every field "removed" would bury it). */
export function documentDiff(document: Document, summary: string | null = null): DocumentDiff {
  const before = parsed(document.baseText);
  const after = parsed(document.text);
  const kind = kindOf(document.path);
  const whole = document.text === null || (summary?.startsWith('Moved here') ?? false);
  const changes = kind && !whole ? claimChanges(kind, before, after).changes : [];
  return {
    path: document.path,
    created: document.baseText === null,
    deleted: document.text === null,
    summary,
    changes: changes.map((change) => ({
      pointer: change.pointer,
      // A removed value's pointer is into the old version: name it there.
      field: fieldWords(change.change === 'removed' ? before : after, change.pointer),
      change: change.change,
      kinds: change.kinds,
      before: change.change === 'added' ? null : valueText(valueAt(before, change.pointer)),
      after: change.change === 'removed' ? null : valueText(valueAt(after, change.pointer)),
    })),
  };
}

/** Every document of the set for review, with the pages' summaries. */
export function documentsDiff(
  documents: readonly Document[],
  live: ReadonlyMap<string, string>,
): DocumentDiff[] {
  const summaries = pageSummaries(documents, live);
  return documents.map((document) => documentDiff(document, summaries.get(document.path) ?? null));
}
