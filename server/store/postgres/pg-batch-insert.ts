// New leads on PostgreSQL, a batch at a time: the leads that arrive while one commit is under way go to the database
// together in the next (shared/group-commit.ts, as the SQLite writer does), as ONE statement of data-modifying CTEs over
// arrays: their idempotency keys, the leads, their search terms, their pending alerts and one NOTIFY for the leads
// stored. A single statement is its own transaction, so a batch costs one round trip and one wait for the disk
// (fsync stays on), and a lead is never stored without its alert. Only when a key was taken already does a second
// query read whose lead it is, to answer the repeat.
import type pg from 'pg';
import type { InsertResult, PreparedLead } from '../contract/lead-store.ts';
import type { KeyRow } from '../contract/rows.ts';
import { COMMIT_MARGIN_MS, createBatchWriter, DeadlineError, type Outcome } from '../shared/group-commit.ts';
import { answerForKey, IDEMPOTENCY_TTL_MS } from '../shared/idempotency.ts';
import { LEADS_CHANNEL } from './pg-notify.ts';
import { checkout } from './pg-schema.ts';

/**
 * Most leads in one statement. NOTIFY's payload (the instance and every lead id stored, 37 characters each) must stay
 * under PostgreSQL's 8,000 bytes.
 */
export const MAX_BATCH = 128;
const PURGE_KEYS_EVERY_MS = 60 * 1000;

/**
 * A query abandoned after `timeoutMs`: pg reads a query's own query_timeout, which its types leave out. A `name` makes
 * it a prepared statement, parsed and planned once per connection (the hot statements: the batch insert is large).
 */
export const timed = (text: string, values: unknown[], timeoutMs: number, name?: string): pg.QueryConfig =>
  Object.assign(name === undefined ? { text, values } : { name, text, values }, { query_timeout: timeoutMs });

// The key is inserted first in the statement and the lead only where the key is now its own, so a key taken by an
// earlier lead (or by a twin in another instance's batch, which is waited for) stores nothing; an expired row for the
// key is taken over. The foreign keys are checked at the end of the statement, when the leads are in. Keys are
// inserted in one order everywhere, so two batches that share keys wait for each other instead of deadlocking.
const INSERT_BATCH = `
WITH input AS (
  SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::text[], $8::text[],
    $15::text[]) AS t(id, form_id, created_at, source, sealed, created_ms, key, fingerprint, promised_at)
), keys AS (
  INSERT INTO idempotency_keys (form_id, key, lead_id, created_at, fingerprint)
  SELECT form_id, key, id, $9, fingerprint FROM input WHERE key IS NOT NULL ORDER BY form_id, key
  ON CONFLICT (form_id, key) DO UPDATE SET lead_id = excluded.lead_id, created_at = excluded.created_at,
    fingerprint = excluded.fingerprint
  WHERE idempotency_keys.created_at < $10
  RETURNING lead_id
), stored AS (
  INSERT INTO leads (id, form_id, created_at, source, data, sealed, promised_at, due_at)
  SELECT id, form_id, created_at, source, '{}', sealed, promised_at, promised_at FROM input
  WHERE key IS NULL OR id IN (SELECT lead_id FROM keys)
  RETURNING id
), terms AS (
  INSERT INTO lead_terms (term, lead_id)
  SELECT term, lead_id FROM unnest($11::text[], $12::text[]) AS t(term, lead_id) WHERE lead_id IN (SELECT id FROM stored)
  ON CONFLICT DO NOTHING
), alerts AS (
  INSERT INTO alerts (lead_id, status, attempts, next_attempt_at, pending_since)
  SELECT input.id, 'pending', 0, input.created_ms, input.created_ms FROM input JOIN stored ON stored.id = input.id
)
SELECT ids, CASE WHEN ids IS NOT NULL THEN pg_notify($13, $14 || ':' || array_to_string(ids, ',')) END AS told
FROM (SELECT array_agg(id) AS ids FROM stored) AS batch`;

const SELECT_KEYS = `
SELECT form_id, key, lead_id, fingerprint FROM idempotency_keys
WHERE (form_id, key) IN (SELECT * FROM unnest($1::text[], $2::text[])) AND created_at >= $3`;

export interface QueuedLead {
  lead: PreparedLead;
  /** When its visitor stops waiting (epoch ms): a batch is not begun for it closer than COMMIT_MARGIN_MS to that. */
  deadline: number | undefined;
}

const keyOf = (lead: PreparedLead) =>
  lead.idempotencyKey === undefined ? undefined : `${lead.formId}\u0000${lead.idempotencyKey}`;
const leftOf = (item: QueuedLead, now: number) => (item.deadline ?? Infinity) - COMMIT_MARGIN_MS - now;

/**
 * A writer of new leads for one instance (`instance` names it in NOTIFY, so it does not hear its own): `write`
 * resolves once the lead's statement committed, with the answer for its key.
 */
export function createPostgresLeadWriter(
  pool: pg.Pool,
  { instance, maxQueued }: { instance: string; maxQueued: number },
) {
  let lastKeyPurge = 0;

  async function commit(items: QueuedLead[]): Promise<Outcome<InsertResult>[]> {
    const client = await checkout(pool);
    // The wait for a connection may have taken some past their deadline: those are not written.
    const now = Date.now();
    const live = items.filter((item) => leftOf(item, now) > 0);
    let outcomes: Outcome<InsertResult>[];
    try {
      outcomes = live.length === 0 ? [] : await write(client, live, now);
    } catch (error) {
      // A connection whose query failed or timed out may still be busy: dropped, never handed to the next caller.
      client.release(true);
      throw error;
    }
    client.release();
    const byLead = new Map(live.map((item, index) => [item, outcomes[index]]));
    return items.map((item) => byLead.get(item) ?? { ok: false as const, error: new DeadlineError() });
  }

  async function write(client: pg.PoolClient, items: QueuedLead[], now: number) {
    const timeout = Math.min(Math.round(Math.min(...items.map((item) => leftOf(item, now)))), 2 ** 31 - 1);
    const expiredBefore = now - IDEMPOTENCY_TTL_MS;
    if (now - lastKeyPurge > PURGE_KEYS_EVERY_MS) {
      lastKeyPurge = now;
      await client.query(
        timed('DELETE FROM idempotency_keys WHERE created_at < $1', [expiredBefore], timeout),
      );
    }
    // A second lead of the batch with the same key is answered from the first's key after the statement: one
    // statement may not insert a key twice.
    const firsts = new Map<string, PreparedLead>();
    const sent = items
      .map((item) => item.lead)
      .filter((lead) => {
        const key = keyOf(lead);
        if (key === undefined) return true;
        if (firsts.has(key)) return false;
        firsts.set(key, lead);
        return true;
      });
    const column = <T>(pick: (lead: PreparedLead) => T) => sent.map(pick);
    const { rows } = await client.query<{ ids: string[] | null }>(
      timed(
        INSERT_BATCH,
        [
          column((lead) => lead.id),
          column((lead) => lead.formId),
          column((lead) => lead.createdAt.toISOString()),
          column((lead) => lead.source),
          column((lead) => lead.sealed),
          column((lead) => lead.createdAt.getTime()),
          column((lead) => lead.idempotencyKey ?? null),
          column((lead) => lead.fingerprints[0] ?? null),
          now,
          expiredBefore,
          sent.flatMap((lead) => lead.terms),
          sent.flatMap((lead) => lead.terms.map(() => lead.id)),
          LEADS_CHANNEL,
          instance,
          column((lead) => lead.promisedAt.toISOString()),
        ],
        timeout,
        'lead-insert-batch',
      ),
    );
    const stored = new Set(rows[0]?.ids ?? []);
    const repeats = items.filter((item) => !stored.has(item.lead.id));
    const seen = new Map<string, KeyRow>();
    if (repeats.length > 0) {
      // Committed: a twin's key, whether its lead was in this batch or came from another instance, is there now.
      const found = await client.query<KeyRow & { form_id: string; key: string }>(
        timed(
          SELECT_KEYS,
          [
            repeats.map((item) => item.lead.formId),
            repeats.map((item) => item.lead.idempotencyKey ?? null),
            expiredBefore,
          ],
          timeout,
        ),
      );
      for (const row of found.rows) seen.set(`${row.form_id}\u0000${row.key}`, row);
    }
    return items.map(({ lead }): Outcome<InsertResult> => {
      if (stored.has(lead.id)) return { ok: true, value: { id: lead.id, replayed: false } };
      const row = seen.get(keyOf(lead) ?? '');
      // Its key's row went between the two queries (a purge): the visitor's resend with the key stores it.
      return row
        ? { ok: true, value: answerForKey(row, lead.fingerprints) }
        : { ok: false, error: new Error('the idempotency key of this lead changed hands; not stored') };
    });
  }

  return createBatchWriter<QueuedLead, InsertResult>(commit, {
    maxBatch: MAX_BATCH,
    maxQueued,
    // Dropped while waiting once this close to its deadline: never begun, so never written.
    deadlineOf: (item) => (item.deadline === undefined ? undefined : item.deadline - COMMIT_MARGIN_MS),
  });
}
