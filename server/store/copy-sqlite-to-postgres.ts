// `npm run leads -- migrate-to-postgres`: copies a SQLite lead database (LEADS_DB) into PostgreSQL (DATABASE_URL), as
// stored: values stay sealed, so the copy needs the key only to prove it. Leads, alerts, idempotency keys, search
// terms, status changes and notes, the audit log (its chain as it is), staff and passkeys, and the releases of the site
// (their files, documents, live pointer and events) and content staff's change sets; not sessions, invites,
// challenges, rate-limit counts, instances' reports, the publish lock or editors' presence, which are short-lived
// (staff sign in again, instances report again). One transaction, every row inserted unless already there, so a
// second run copies nothing; then every row of the file is looked up in PostgreSQL, every lead and note opened with
// the key through the PostgreSQL store, and the audit chain verified there.
import { existsSync, readFileSync } from 'node:fs';
import Database from 'better-sqlite3';
import type pg from 'pg';
import { auditHeadFileOf } from './sqlite/audit-log.ts';
import { openLeadStore } from './sqlite/lead-store.ts';
import type { UnlockOptions } from './contract/keys.ts';
import type { AuditHead } from './shared/audit-chain.ts';
import { CURRENT_KEY_ID, KEY_ID } from './shared/keyring.ts';
import { blobBatches } from './shared/release-blobs.ts';
import { CLEAR_SEALED } from './shared/sealing.ts';
import { openPostgresLeadStore } from './postgres/pg-lead-store.ts';
import { createPool, migrate, readMeta, transaction, writeMeta } from './postgres/pg-schema.ts';

/** Each table copied, parents first, with the columns that name a row. */
const TABLES = [
  { name: 'leads', key: ['id'] },
  { name: 'alerts', key: ['lead_id'] },
  { name: 'idempotency_keys', key: ['form_id', 'key'] },
  { name: 'lead_terms', key: ['term', 'lead_id'] },
  { name: 'lead_events', key: ['id'] },
  // With its hash: a row of another chain at the same place is not this one.
  { name: 'audit', key: ['seq', 'hash'] },
  { name: 'staff', key: ['id'] },
  { name: 'passkeys', key: ['id'] },
  // Releases (sqlite/release-store.ts), each named with what tells it from another database's row at the same place:
  // ids run 1, 2, 3 in both, so a PostgreSQL that already holds releases of its own is found, not merged into.
  { name: 'release_blobs', key: ['hash'] },
  { name: 'releases', key: ['id', 'at', 'content_hash'] },
  { name: 'release_files', key: ['release_id', 'path', 'hash'] },
  { name: 'release_documents', key: ['release_id', 'path', 'hash'] },
  { name: 'live_release', key: ['id', 'release_id', 'generation'] },
  { name: 'release_events', key: ['seq', 'at', 'release_id'] },
  // Change sets (contract/change-store.ts): ids are random, revisions and approvals are kept for ever like releases.
  { name: 'change_sets', key: ['id'] },
  { name: 'change_documents', key: ['change_id', 'path'] },
  { name: 'change_revisions', key: ['change_id', 'path', 'version'] },
  { name: 'change_approvals', key: ['seq', 'change_id', 'at'] },
  { name: 'change_comments', key: ['seq', 'change_id', 'at'] },
  { name: 'preview_links', key: ['token_hash'] },
] as const;
export type CopiedTable = (typeof TABLES)[number]['name'];
const BATCH = 500;

/** The copy cannot be made or does not check out; the message says what to do. */
export class CopyError extends Error {}

export interface CopyReport {
  /** Rows in the SQLite file, per table. */
  rows: Record<CopiedTable, number>;
  /** Rows this run inserted, per table (0 everywhere on a second run). */
  copied: Record<CopiedTable, number>;
}

type Row = Record<string, unknown>;

/**
 * Rows in inserts of BATCH, and rows with bytes (a release's files) in inserts of at most BLOB_BATCH_BYTES, so that a
 * site's images do not make one statement of hundreds of megabytes.
 */
function* batchesOf(rows: Row[]): Generator<Row[]> {
  if (rows[0] !== undefined && Buffer.isBuffer(rows[0].bytes)) {
    yield* blobBatches(rows as (Row & { bytes: Buffer })[]);
    return;
  }
  for (let at = 0; at < rows.length; at += BATCH) yield rows.slice(at, at + BATCH);
}

/** The columns PostgreSQL has for `table` (the two schemas name them alike), in order. */
async function columnsOf(pool: pg.Pool, table: string): Promise<string[]> {
  const { rows } = await pool.query<{ column_name: string }>(
    `SELECT column_name FROM information_schema.columns
     WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position`,
    [table],
  );
  return rows.map((row) => row.column_name);
}

/** How many of `rows` PostgreSQL holds under the same key. */
async function present(pool: pg.Pool, table: string, key: readonly string[], rows: Row[]): Promise<number> {
  let found = 0;
  for (let at = 0; at < rows.length; at += BATCH) {
    const batch = rows.slice(at, at + BATCH);
    const arrays = key.map((column) => batch.map((row) => String(row[column])));
    const { rows: counted } = await pool.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM ${table}
       WHERE (${key.map((column) => `${column}::text`).join(', ')})
         IN (SELECT * FROM unnest(${key.map((_, n) => `$${n + 1}::text[]`).join(', ')}))`,
      arrays,
    );
    found += counted[0]?.n ?? 0;
  }
  return found;
}

/** The key meta of the file, written where PostgreSQL has none; refused where it has another database's. */
async function copyKeyMeta(source: Database.Database, pool: pg.Pool): Promise<void> {
  const meta = (name: string) =>
    (source.prepare('SELECT value FROM meta WHERE name = ?').pluck().get(name) as string | undefined) ??
    undefined;
  const theirs = await readMeta(pool, KEY_ID);
  const ours = meta(KEY_ID);
  if (theirs !== undefined && ours !== undefined && theirs !== ours)
    throw new CopyError(
      `DATABASE_URL already holds a lead database sealed under another key (key id ${theirs}, this file's is ${ours}). ` +
        'Copy into an empty database.',
    );
  for (const name of [KEY_ID, CURRENT_KEY_ID, CLEAR_SEALED]) {
    const value = meta(name);
    if (value !== undefined && (await readMeta(pool, name)) === undefined) await writeMeta(pool, name, value);
  }
}

export async function copySqliteToPostgres(
  file: string,
  url: string,
  keys: Pick<UnlockOptions, 'key' | 'keyFile'> & { auditKey?: readonly Buffer[] },
  actor: string,
): Promise<CopyReport> {
  // Opened as the server opens it: the key must fit the file (KeyError otherwise), its schema is brought up to date,
  // and values older versions stored in clear are sealed, as at a server's start: PostgreSQL never holds one in clear.
  const opened = openLeadStore(file, { ...keys, createKeyFile: false, writerThread: false });
  try {
    await opened.sealLegacyLeads();
  } finally {
    await opened.close();
  }
  const source = new Database(file, { readonly: true });
  const pool = createPool(url, { max: 2 });
  const rows = {} as CopyReport['rows'];
  const copied = {} as CopyReport['copied'];
  try {
    // One moment of the file, whatever a running server writes meanwhile.
    source.exec('BEGIN');
    const read = Object.fromEntries(
      TABLES.map(({ name }) => [name, source.prepare(`SELECT * FROM ${name}`).all() as Row[]]),
    ) as Record<CopiedTable, Row[]>;
    await migrate(pool);
    await copyKeyMeta(source, pool);
    await transaction(pool, async (client) => {
      for (const { name } of TABLES) {
        const columns = await columnsOf(pool, name);
        const all = read[name];
        rows[name] = all.length;
        copied[name] = 0;
        for (const batch of batchesOf(all)) {
          const values = batch.flatMap((row) => columns.map((column) => row[column] ?? null));
          const tuples = batch.map(
            (_, n) => `(${columns.map((__, c) => `$${n * columns.length + c + 1}`).join(', ')})`,
          );
          const { rowCount } = await client.query(
            `INSERT INTO ${name} (${columns.join(', ')}) VALUES ${tuples.join(', ')} ON CONFLICT DO NOTHING`,
            values,
          );
          copied[name] += rowCount ?? 0;
        }
      }
      await copyAuditHead(file, client);
      // Events' numbers were copied as they are: the next one PostgreSQL gives follows the last.
      for (const table of ['release_events', 'change_approvals', 'change_comments'])
        await client.query(
          `SELECT setval(pg_get_serial_sequence('${table}', 'seq'), coalesce(max(seq), 0) + 1, false) FROM ${table}`,
        );
    });
    for (const { name, key } of TABLES) {
      const found = await present(pool, name, key, read[name]);
      if (found !== read[name].length)
        throw new CopyError(
          `${read[name].length - found} of the file's ${read[name].length} ${name} rows are not in PostgreSQL as they ` +
            'are in the file: it holds other rows under the same keys. Copy into an empty database.',
        );
    }
    await verifyOpened(url, keys, read.leads, actor);
  } finally {
    source.close();
    await pool.end();
  }
  return { rows, copied };
}

/** The file's audit checkpoint (sqlite/audit-log.ts) as PostgreSQL's, unless PostgreSQL has one of its own. */
async function copyAuditHead(file: string, client: pg.PoolClient): Promise<void> {
  const headFile = auditHeadFileOf(file);
  if (headFile === undefined || !existsSync(headFile)) return;
  const head = JSON.parse(readFileSync(headFile, 'utf8')) as AuditHead;
  await client.query(
    `INSERT INTO audit_head (id, seq, hash, key_id, mac, broken) VALUES (1, $1, $2, $3, $4, $5)
     ON CONFLICT (id) DO NOTHING`,
    [head.seq, head.hash, head.keyId, head.mac, head.broken ? JSON.stringify(head.broken) : null],
  );
}

/** Every lead and note copied opens with the key through the PostgreSQL store, and the audit chain holds there. */
async function verifyOpened(
  url: string,
  keys: Pick<UnlockOptions, 'key' | 'keyFile'> & { auditKey?: readonly Buffer[] },
  leads: Row[],
  actor: string,
): Promise<void> {
  const store = await openPostgresLeadStore(url, keys);
  try {
    for (const { id } of leads) {
      const lead = await store.getLead(String(id));
      const inbox = await store.inbox.get(String(id));
      if (!lead || !inbox) throw new CopyError(`lead ${String(id)} cannot be read back from PostgreSQL`);
    }
    const chain = await store.audit.verify();
    if (!chain.ok)
      throw new CopyError(`the audit log in PostgreSQL does not verify at row ${chain.seq}: ${chain.reason}`);
    await store.audit.append({
      actor,
      action: 'cli-read',
      detail: `migrate-to-postgres count=${leads.length}`,
    });
  } finally {
    await store.close();
  }
}
