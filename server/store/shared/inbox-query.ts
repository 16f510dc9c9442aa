// How both stores read the inbox's queries: its cursors (keyset pagination on created_at and id), its dates, its
// page sizes, and the refusal of what it cannot read.

/** A filter or cursor the inbox cannot read (the caller answers 400): never a reason for a 500. */
export class InboxQueryError extends Error {}

export const MAX_PAGE = 200;
/** Leads sharing a search term beyond which it is checked per lead rather than gathered (see each store's page()). */
export const COMMON_TERM = 1000;

export const encodeCursor = (row: { created_at: string; id: string }): string =>
  Buffer.from(JSON.stringify([row.created_at, row.id])).toString('base64url');

export function decodeCursor(cursor: string): [string, string] {
  try {
    const value: unknown = JSON.parse(Buffer.from(cursor, 'base64url').toString('utf8'));
    if (Array.isArray(value) && value.length === 2 && value.every((part) => typeof part === 'string'))
      return [value[0] as string, value[1] as string];
  } catch {
    // Answered below, as any other cursor that is not one of ours.
  }
  throw new InboxQueryError('not a cursor of this list');
}

/** An ISO 8601 instant as stored (toISOString), so it compares as text with created_at. */
export function instant(text: string, name: string): string {
  const time = Date.parse(text);
  if (Number.isNaN(time)) throw new InboxQueryError(`${name} is not a date and time`);
  return new Date(time).toISOString();
}

/** The page size asked for, as a whole number from 1 to MAX_PAGE (a limit that is not a number reads as 1). */
export const pageLimit = (limit: number): number => Math.min(MAX_PAGE, Math.max(1, Math.floor(limit) || 1));
