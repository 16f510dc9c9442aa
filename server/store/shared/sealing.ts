// Sealing (encrypting) and opening the values of a lead with a key ring (keyring.ts), and the search terms hashed
// beside them: the same for both stores, before their database sees a value.
import type { FormDefinition } from '../../../generated/content-types.ts';
import type { LeadStatus } from '../contract/inbox.ts';
import type { LeadRow } from '../contract/rows.ts';
import { CipherError, fingerprintOf, openValue, sealedKeyId, sealValue } from './cipher.ts';
import { createKeyring, type Keyring } from './keyring.ts';
import { searchKindsOf } from './lead-fields.ts';
import { leadTerms } from './search-terms.ts';

// Set once every value of the database is sealed (schema 2 had sealed health details only, under 'legacy_sealed').
export const CLEAR_SEALED = 'clear_sealed';

export interface Sealer {
  /** `value` sealed for `field` of lead `leadId` (a note's field is `note:<noteId>`). */
  seal(value: string, leadId: string, field: string): string;
  open(sealed: string, leadId: string, field: string): string;
  /** Each value sealed for its field of lead `leadId`. */
  sealAll(values: Record<string, string>, leadId: string): Record<string, string>;
  /** The row's clear fields and its sealed ones opened, in one record. */
  openAll(row: Pick<LeadRow, 'id' | 'data' | 'sealed'>): Record<string, string>;
  /** The keys search terms are hashed with (search-terms.ts): the current key's first. */
  indexKeys(): Buffer[];
  /** A submission's fingerprint under each key, the current key's first: a repeat across a rotation is a repeat. */
  fingerprints(text: string): string[];
}

export const parseStrings = (json: string): Record<string, string> =>
  JSON.parse(json) as Record<string, string>;

/** A sealer over `ring` (or over one key alone). */
export function createSealer(ring: Keyring | Buffer): Sealer {
  const keyring = Buffer.isBuffer(ring) ? createKeyring([ring]) : ring;
  function open(sealed: string, leadId: string, field: string): string {
    const id = sealedKeyId(sealed);
    const key = id === null ? keyring.legacy() : id === undefined ? keyring.current() : keyring.find(id);
    if (!key)
      throw new CipherError(
        `field ${field} of lead ${leadId} was sealed with key id ${id ?? 'of the first key'}, which the key ring lacks`,
      );
    return openValue(key.key, sealed, leadId, field);
  }
  function sealAll(values: Record<string, string>, leadId: string): Record<string, string> {
    const { key, id } = keyring.current();
    return Object.fromEntries(
      Object.entries(values).map(([field, value]) => [field, sealValue(key, id, value, leadId, field)]),
    );
  }
  return {
    seal(value, leadId, field) {
      const { key, id } = keyring.current();
      return sealValue(key, id, value, leadId, field);
    },
    open,
    sealAll,
    openAll(row) {
      const opened = Object.entries(parseStrings(row.sealed)).map(([field, value]) => [
        field,
        open(value, row.id, field),
      ]);
      return { ...parseStrings(row.data), ...Object.fromEntries(opened) };
    },
    indexKeys: () => keyring.all().map((entry) => entry.indexKey),
    fingerprints: (text) => keyring.all().map((entry) => fingerprintOf(entry.key, text)),
  };
}

/**
 * The page a lead was sent from is sealed too (a path such as /treatment/fentanyl-addiction, beside an access log, ties
 * an address to an admission), in its own column, under a field name no form field can have.
 */
export const SOURCE_FIELD = '$source';
/** A status change's from and to, sealed in its event's note_sealed column; a note's field is `note:<id>`. */
export const statusField = (eventId: string) => `status:${eventId}`;
/** The field an event's sealed value is sealed for: `note:<id>` or `status:<id>`. */
export const eventField = (event: { kind: 'note' | 'status'; id: string }) => `${event.kind}:${event.id}`;

/** Whether a stored value is sealed (a clear source always starts with /, a clear status is a word). */
export const isSealed = (value: string): boolean => sealedKeyId(value) !== undefined;

export const sealSource = (sealer: Sealer, source: string, leadId: string): string =>
  sealer.seal(source, leadId, SOURCE_FIELD);

/** A lead's source page, opened (one stored in clear by an older version, as it is, until the store seals it). */
export const openSource = (sealer: Sealer, row: Pick<LeadRow, 'id' | 'source'>): string =>
  isSealed(row.source) ? sealer.open(row.source, row.id, SOURCE_FIELD) : row.source;

export const sealStatusChange = (
  sealer: Sealer,
  leadId: string,
  eventId: string,
  change: { from: LeadStatus; to: LeadStatus },
): string => sealer.seal(JSON.stringify([change.from, change.to]), leadId, statusField(eventId));

export function openStatusChange(
  sealer: Sealer,
  leadId: string,
  eventId: string,
  sealed: string,
): { from: LeadStatus; to: LeadStatus } {
  const [from, to] = JSON.parse(sealer.open(sealed, leadId, statusField(eventId))) as [
    LeadStatus,
    LeadStatus,
  ];
  return { from, to };
}

/** Leads per transaction: the server's writer thread waits for each, so each is kept short. */
export const RESEAL_BATCH = 300;

export type TermsOf = (formId: string, values: Record<string, string>) => string[];

/** A lead's hashed search terms under the current key, the searchable fields named by its form's definition. */
export const termsFor =
  (sealer: Sealer, forms: ReadonlyMap<string, FormDefinition> | undefined): TermsOf =>
  (formId, values) =>
    leadTerms(values, searchKindsOf(forms?.get(formId)), sealer.indexKeys()[0] ?? Buffer.alloc(0));
