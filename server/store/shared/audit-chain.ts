// The audit log's chain, the same in both stores: each row carries the hash of the row before it, so a row edited or
// deleted afterwards breaks the chain where it was. Rows are signed (HMAC, audit-keys.ts) with a key the database does
// not hold, and the newest row's (seq, hash) is kept outside the table (a checkpoint, and the server's log), so a cut or
// rewritten tail is found too. Two versions, each verified as it was written:
// - v1 (before 2026-11-27): hash = SHA-256 hex of the row; anyone could recompute it.
// - v2: hash = `2.<key id>.<sha>.<mac>`, sha = SHA-256 of the row and its key id, mac = HMAC of sha under that key.
//   A row whose key this process no longer holds (a retired lead key) is still checked through its sha, and is vouched
//   for by the first later row whose mac is checked, since that row's hash covers it through the chain.
import { createHash } from 'node:crypto';
import type { AuditAction, AuditEntry, AuditRow, AuditVerdict } from '../contract/audit-log.ts';
import type { StoredAuditRow } from '../contract/rows.ts';
import { mac, sameMac, type AuditSigner } from './audit-keys.ts';

type Hashed = Pick<AuditRow, 'prevHash' | 'seq' | 'at' | 'actor' | 'action' | 'leadId' | 'detail'>;

/** The newest row as kept outside the table, signed so that it cannot be written for a cut tail. */
export interface AuditHead {
  seq: number;
  hash: string;
  keyId: string;
  mac: string;
  /**
   * Set when an append found the chain's end not where the checkpoint said (a cut tail, a checkpoint gone): kept in
   * every checkpoint after, so acts appended after a cut do not hide it.
   */
  broken?: { seq: number; reason: string };
}

/** Where a store keeps its checkpoint: a file beside the SQLite database, a table of its own in PostgreSQL. */
export interface AuditAnchor {
  read(): Promise<AuditHead | undefined>;
}

const fields = (row: Hashed) => [
  row.prevHash,
  row.seq,
  row.at,
  row.actor,
  row.action,
  row.leadId,
  row.detail,
];

/** v1: SHA-256 (hex) of the row as a JSON array, as rows written before the chain was signed were hashed. */
export const auditHash = (row: Hashed): string =>
  createHash('sha256')
    .update(JSON.stringify(fields(row)))
    .digest('hex');

const shaOf = (row: Hashed, keyId: string): string =>
  createHash('sha256')
    .update(JSON.stringify([...fields(row), keyId]))
    .digest('hex');

/** v2: the hash of `row` signed with `key`. */
export function signedHash(row: Hashed, signer: AuditSigner): string {
  const key = signer.current();
  const sha = shaOf(row, key.id);
  return `2.${key.id}.${sha}.${mac(key, sha)}`;
}

const headText = (head: Pick<AuditHead, 'seq' | 'hash' | 'broken'>) =>
  `audit-head ${head.seq} ${head.hash} ${JSON.stringify(head.broken ?? null)}`;

const headSigned = (head: AuditHead, signer: AuditSigner): boolean => {
  const key = signer.find(head.keyId);
  return key !== undefined && typeof head.mac === 'string' && sameMac(mac(key, headText(head)), head.mac);
};

const missing = (from: number, to: number) =>
  from === to ? `row ${from} is missing` : `rows ${from} to ${to} are missing`;

/** What was wrong with the chain's end, found when `row` was appended after `previous` under checkpoint `current`. */
function brokenAt(
  row: Pick<AuditRow, 'seq'>,
  previous: Pick<AuditRow, 'seq' | 'hash'> | undefined,
  current: AuditHead | undefined,
  signer: AuditSigner,
): AuditHead['broken'] {
  const when = `when row ${row.seq} was appended`;
  if (current === undefined)
    // A log with no signed row yet is one from before checkpoints: its first checkpoint starts here.
    return previous?.hash.startsWith('2.')
      ? { seq: row.seq, reason: `the checkpoint was missing ${when}` }
      : undefined;
  if (!headSigned(current, signer))
    return { seq: current.seq, reason: `the checkpoint was not signed with a key this server holds ${when}` };
  if (current.broken) return current.broken;
  const last = previous?.seq ?? 0;
  if (current.seq > last)
    return { seq: last + 1, reason: `${missing(last + 1, current.seq)}: they were gone ${when}` };
  if (current.seq !== last || current.hash !== previous?.hash)
    return { seq: current.seq, reason: `row ${current.seq} was not the row its checkpoint names ${when}` };
  return undefined;
}

/** The checkpoint after appending `row` to `previous`, `current` the checkpoint before (see AuditHead.broken). */
export function headOf(
  row: Pick<AuditRow, 'seq' | 'hash'>,
  previous: Pick<AuditRow, 'seq' | 'hash'> | undefined,
  current: AuditHead | undefined,
  signer: AuditSigner,
): AuditHead {
  const key = signer.current();
  const broken = brokenAt(row, previous, current, signer);
  const head = { seq: row.seq, hash: row.hash, ...(broken && { broken }) };
  return { ...head, keyId: key.id, mac: mac(key, headText(head)) };
}

/** The row that follows `previous` (the chain's last row; undefined for the first), signed: every store's append. */
export function nextAuditRow(
  previous: Pick<StoredAuditRow, 'seq' | 'hash'> | undefined,
  entry: AuditEntry,
  signer: AuditSigner,
): AuditRow {
  const hashed: Hashed = {
    prevHash: previous?.hash ?? '',
    seq: (previous?.seq ?? 0) + 1,
    at: new Date().toISOString(),
    actor: entry.actor,
    action: entry.action,
    leadId: entry.leadId ?? null,
    detail: entry.detail ?? null,
  };
  return { ...hashed, hash: signedHash(hashed, signer) };
}

export const auditRowOf = (row: StoredAuditRow): AuditRow => ({
  seq: Number(row.seq),
  at: row.at,
  actor: row.actor,
  // Written only through append(), which takes an AuditAction.
  action: row.action as AuditAction,
  leadId: row.lead_id,
  detail: row.detail,
  prevHash: row.prev_hash,
  hash: row.hash,
});

const VERIFY_PAGE = 1000;

type RowCheck = 'v1' | 'signed' | 'unkeyed' | string;

/** One row on its own: its version, or why it fails. */
function checkRow(row: AuditRow, signer: AuditSigner, signedBefore: boolean): RowCheck {
  const parts = row.hash.split('.');
  if (parts.length !== 4 || parts[0] !== '2') {
    if (signedBefore) return `row ${row.seq} is not signed, though rows before it are`;
    return auditHash(row) === row.hash ? 'v1' : `row ${row.seq} was altered`;
  }
  const [, keyId = '', sha = '', signature = ''] = parts;
  if (shaOf(row, keyId) !== sha) return `row ${row.seq} was altered`;
  const key = signer.find(keyId);
  if (!key) return 'unkeyed';
  return sameMac(mac(key, sha), signature)
    ? 'signed'
    : `row ${row.seq} was altered (its signature does not match)`;
}

/**
 * Walks the chain from its first row, `rowsAfter` reading it a page at a time (every store's audit log), and compares
 * its end with the checkpoint `head`.
 */
export async function verifyChain(
  rowsAfter: (seq: number, limit: number) => Promise<AuditRow[]>,
  signer: AuditSigner,
  head: AuditHead | undefined,
): Promise<AuditVerdict> {
  let prev = { seq: 0, hash: '' };
  let count = 0;
  let signed = false;
  // The first row since the last one whose signature was checked.
  let unvouched: number | undefined;
  let atHead: string | undefined;
  for (;;) {
    const rows = await rowsAfter(prev.seq, VERIFY_PAGE);
    for (const row of rows) {
      if (row.seq !== prev.seq + 1)
        return { ok: false, seq: prev.seq + 1, reason: `row ${prev.seq + 1} is missing` };
      if (row.prevHash !== prev.hash)
        return { ok: false, seq: row.seq, reason: `row ${row.seq} does not follow the row before it` };
      const check = checkRow(row, signer, signed);
      if (check === 'signed') unvouched = undefined;
      else if (check === 'v1' || check === 'unkeyed') unvouched ??= row.seq;
      else return { ok: false, seq: row.seq, reason: check };
      if (check !== 'v1') signed = true;
      if (row.seq === head?.seq) atHead = row.hash;
      prev = row;
      count += 1;
    }
    if (rows.length === VERIFY_PAGE) continue;
    return endOf(prev.seq, { signed, unvouched, atHead }, signer, head) ?? { ok: true, rows: count };
  }
}

/** What the chain's end says against the checkpoint; undefined when they agree. */
function endOf(
  last: number,
  walk: { signed: boolean; unvouched: number | undefined; atHead: string | undefined },
  signer: AuditSigner,
  head: AuditHead | undefined,
): AuditVerdict | undefined {
  if (!head)
    // Only a log written before checkpoints existed (all v1) has none.
    return walk.signed
      ? {
          ok: false,
          seq: last + 1,
          reason: `the checkpoint of the log's last row is missing (the log ends at row ${last})`,
        }
      : undefined;
  if (!headSigned(head, signer))
    return {
      ok: false,
      seq: head.seq,
      reason: `the checkpoint (row ${head.seq}) is not signed with a key this server holds`,
    };
  if (head.seq > last)
    return {
      ok: false,
      seq: last + 1,
      reason: `${missing(last + 1, head.seq)}: the log ends at row ${last}, its checkpoint at row ${head.seq}`,
    };
  if (walk.atHead !== head.hash)
    return {
      ok: false,
      seq: head.seq,
      reason: `row ${head.seq} was rewritten: it is not the row its checkpoint names`,
    };
  if (head.broken) return { ok: false, seq: head.broken.seq, reason: head.broken.reason };
  if (walk.signed && walk.unvouched !== undefined)
    return {
      ok: false,
      seq: walk.unvouched,
      reason: `rows ${walk.unvouched} to ${last} are signed with a key this server does not hold`,
    };
  return undefined;
}
