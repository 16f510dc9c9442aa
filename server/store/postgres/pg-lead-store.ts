// The lead store on PostgreSQL, for several instances on one database: the same contract (contract/lead-store.ts) and
// guarantees as the SQLite store (sqlite/lead-store.ts). A lead, its search terms, its idempotency key and its pending alert are one transaction
// (a batch of the leads of the same moment: pg-batch-insert.ts), committed before the caller hears of it; every value is sealed here, before it leaves the process; alerts are
// claimed with FOR UPDATE SKIP LOCKED and a lease, so each is sent by one instance at a time and a dead instance's
// claims come due again; new leads reach every instance through LISTEN/NOTIFY.
import { randomUUID } from 'node:crypto';
import { postgresChangeStore } from './pg-change-store.ts';
import type pg from 'pg';
import type { AlertStatus, LeadStore, StoreOptions } from '../contract/lead-store.ts';
import type { ClaimedRow, LeadRow } from '../contract/rows.ts';
import { MAX_QUEUED_WRITES } from '../shared/group-commit.ts';
import { CURRENT_CHECK_MS, CURRENT_KEY_ID } from '../shared/keyring.ts';
import { leadListeners } from '../shared/lead-listeners.ts';
import { prepareLead, promiseFor } from '../shared/prepare-lead.ts';
import { createSealer, openSource, termsFor } from '../shared/sealing.ts';
import { auditSigner } from '../shared/audit-keys.ts';
import { sealPostgresSourcesAndHistory } from './pg-legacy-sealing.ts';
import { createPostgresAuditLog } from './pg-audit-log.ts';
import { createPostgresInboxStore } from './pg-inbox-store.ts';
import { createPostgresLeadWriter } from './pg-batch-insert.ts';
import { createPool, migrate, readMeta, type PoolOptions } from './pg-schema.ts';
import { postgresCounters } from './pg-rate-limits.ts';
import { unlockPostgres } from './pg-keys.ts';
import { postgresStaffStore } from './pg-staff-store.ts';
import { CHANGES_CHANNEL, listenForLeads } from './pg-notify.ts';
import { createPostgresReleaseStore } from './pg-release-store.ts';

const PURGE_BATCH = 500;

export interface PostgresStoreOptions extends StoreOptions, PoolOptions {}

/** Connects to `url`, migrates (under the advisory lock) and unlocks; rejects with KeyError on a wrong key. */
export async function openPostgresLeadStore(
  url: string,
  options: PostgresStoreOptions = {},
): Promise<LeadStore> {
  const pool = createPool(url, options);
  try {
    return await openOn(pool, url, options);
  } catch (error) {
    await pool.end().catch(() => undefined);
    throw error;
  }
}

async function openOn(pool: pg.Pool, url: string, options: PostgresStoreOptions): Promise<LeadStore> {
  await migrate(pool);
  // Which key seals now is asked of the database in the background: the keyring is read synchronously.
  let currentId: string | undefined;
  const { keyring, keySource, current } = await unlockPostgres(pool, url, options, () => currentId);
  currentId = current;
  const keyCheck = setInterval(() => {
    readMeta(pool, CURRENT_KEY_ID).then(
      (id) => (currentId = id ?? currentId),
      () => undefined,
    );
  }, CURRENT_CHECK_MS);
  keyCheck.unref();

  const sealer = createSealer(keyring);
  const termsOf = termsFor(sealer, options.forms);
  const promiseOf = promiseFor(options.forms);
  const maxQueued = options.maxQueuedWrites ?? MAX_QUEUED_WRITES;
  const instance = randomUUID();
  const audit = createPostgresAuditLog(pool, auditSigner(keyring, options.auditKey), options.onAuditHead);
  const { onLeadStored, tell } = leadListeners();
  // Leads stored by other instances; this instance tells its own listeners itself, at once after the commit.
  // Staff changes, heard on the same connection from every instance; this instance tells its own at once.
  const changes = leadListeners();
  const listening = await listenForLeads(
    url,
    (from, id) => from !== instance && tell(id),
    (from, id) => from !== instance && changes.tell(id),
  );
  const inbox = createPostgresInboxStore({
    pool,
    sealer,
    onLeadStored,
    onLeadChanged: changes.onLeadStored,
    async changed(id) {
      changes.tell(id);
      // After the commit: a lost notification (the database went away just now) leaves other instances' lists to their
      // next refresh, never the change itself undone.
      await pool
        .query('SELECT pg_notify($1, $2)', [CHANGES_CHANNEL, `${instance}:${id}`])
        .catch(() => undefined);
    },
  });

  const counters = postgresCounters(pool);
  const releases = createPostgresReleaseStore(pool, url);
  const writer = createPostgresLeadWriter(pool, { instance, maxQueued });
  let closed = false;
  const open = () => {
    if (closed) throw new Error('the lead store is closed');
  };
  const toLead = (row: LeadRow) => ({
    id: row.id,
    formId: row.form_id,
    createdAt: row.created_at,
    source: openSource(sealer, row),
    data: sealer.openAll(row),
  });

  const alertOf = (row: {
    status: AlertStatus;
    attempts: number;
    next_attempt_at: number;
    last_error: string | null;
    delivered_at: string | null;
    pending_since: number;
  }) => ({
    status: row.status,
    attempts: row.attempts,
    pendingSince: row.pending_since,
    nextAttemptAt: row.next_attempt_at,
    lastError: row.last_error,
    deliveredAt: row.delivered_at,
  });

  return {
    keySource,
    audit,
    inbox,
    fingerprint: (text) => sealer.fingerprints(text)[0] ?? '',
    fingerprints: (text) => sealer.fingerprints(text),
    async insertLead(lead, { deadline } = {}) {
      open();
      const result = await writer.write({ lead: prepareLead(lead, sealer, termsOf, promiseOf), deadline });
      // After the commit, and only for a lead written now: a repeat of an earlier one is no news.
      if (!result.replayed) tell(result.id);
      return result;
    },
    async getLead(id) {
      open();
      const { rows } = await pool.query<LeadRow>('SELECT * FROM leads WHERE id = $1', [id]);
      return rows[0] && toLead(rows[0]);
    },
    async listLeads({ since } = {}) {
      open();
      const { rows } = await pool.query<LeadRow & { alert: AlertStatus }>(
        `SELECT leads.*, alerts.status AS alert FROM leads JOIN alerts ON alerts.lead_id = leads.id
         WHERE leads.created_at >= $1 ORDER BY leads.created_at, leads.id`,
        [since ?? ''],
      );
      return rows.map((row) => ({ ...toLead(row), alert: row.alert }));
    },
    async getAlert(id) {
      open();
      const { rows } = await pool.query('SELECT * FROM alerts WHERE lead_id = $1', [id]);
      return rows[0] && alertOf(rows[0]);
    },
    async claimDueAlerts({ now, limit, leaseMs }) {
      open();
      // SKIP LOCKED: an alert another instance is claiming right now is left to it, not waited for.
      const { rows } = await pool.query<ClaimedRow>({
        name: 'alert-claim',
        text: `WITH due AS (
           SELECT lead_id FROM alerts WHERE status = 'pending' AND next_attempt_at <= $1
           ORDER BY next_attempt_at LIMIT $2 FOR UPDATE SKIP LOCKED
         ), claimed AS (
           UPDATE alerts SET attempts = alerts.attempts + 1, next_attempt_at = $3 FROM due
           WHERE alerts.lead_id = due.lead_id
           RETURNING alerts.lead_id, alerts.attempts - 1 AS attempts, alerts.pending_since
         )
         SELECT leads.*, claimed.attempts, claimed.pending_since FROM claimed JOIN leads ON leads.id = claimed.lead_id
         ORDER BY claimed.pending_since`,
        values: [now, limit, now + leaseMs],
      });
      return rows.map((row) => ({
        lead: toLead(row),
        attempt: row.attempts + 1,
        pendingSince: row.pending_since,
      }));
    },
    async nextAlertDueAt() {
      open();
      const { rows } = await pool.query<{ due: number | null }>({
        name: 'alert-next-due',
        text: "SELECT min(next_attempt_at) AS due FROM alerts WHERE status = 'pending'",
      });
      return rows[0]?.due ?? undefined;
    },
    async markDelivered(ids, at) {
      open();
      await pool.query({
        name: 'alerts-delivered',
        text: "UPDATE alerts SET status = 'delivered', delivered_at = $1, last_error = NULL WHERE lead_id = ANY($2)",
        values: [at.toISOString(), ids],
      });
    },
    async scheduleRetry(id, nextAttemptAt, error, { counted = true } = {}) {
      open();
      // An uncounted retry gives back the attempt its claim counted (the webhook was rate limiting).
      await pool.query(
        'UPDATE alerts SET next_attempt_at = $1, last_error = $2, attempts = attempts - $3 WHERE lead_id = $4',
        [Math.round(nextAttemptAt), error, counted ? 0 : 1, id],
      );
    },
    async markDead(id, error) {
      open();
      await pool.query("UPDATE alerts SET status = 'dead', last_error = $1 WHERE lead_id = $2", [error, id]);
    },
    async retryDeadAlerts(now) {
      open();
      const { rowCount } = await pool.query(
        "UPDATE alerts SET status = 'pending', attempts = 0, next_attempt_at = $1, pending_since = $1 WHERE status = 'dead'",
        [now],
      );
      return rowCount ?? 0;
    },
    // A PostgreSQL lead database never held a lead's fields in clear; its source pages and status changes it did.
    sealLegacyLeads: () => sealPostgresSourcesAndHistory(pool, sealer),
    async purgeOlderThan(cutoff) {
      open();
      const before = new Date(cutoff).toISOString();
      let count = 0;
      // Batches of short transactions, so visitors' leads are not held behind a long one.
      for (;;) {
        const { rowCount } = await pool.query(
          'DELETE FROM leads WHERE id IN (SELECT id FROM leads WHERE created_at < $1 ORDER BY created_at LIMIT $2)',
          [before, PURGE_BATCH],
        );
        count += rowCount ?? 0;
        if ((rowCount ?? 0) < PURGE_BATCH) break;
      }
      if (count > 0) await audit.append({ actor: 'server', action: 'purge', detail: `count=${count}` });
      return count;
    },
    async alertBacklog() {
      open();
      const { rows } = await pool.query<{ pending: number; dead: number; oldest: number | null }>(
        `SELECT (SELECT count(*)::int FROM alerts WHERE status = 'pending') AS pending,
                (SELECT count(*)::int FROM alerts WHERE status = 'dead') AS dead,
                (SELECT min(pending_since) FROM alerts WHERE status = 'pending') AS oldest`,
      );
      const row = rows[0];
      return {
        pending: row?.pending ?? 0,
        dead: row?.dead ?? 0,
        oldestPendingSince: row?.oldest ?? undefined,
      };
    },
    async isHealthy() {
      if (closed) return false;
      try {
        await pool.query('SELECT 1 FROM leads LIMIT 1');
        return true;
      } catch {
        return false;
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      clearInterval(keyCheck);
      counters.stop();
      await writer.idle();
      await listening.stop();
      await releases.close();
      await pool.end();
    },
    // The key current at open: a rotation signs staff out at the next restart, never mid-session.
    staff: postgresStaffStore(pool, keyring.current().key),
    rateCounters: counters.counters,
    releases,
    changes: postgresChangeStore(pool),
  };
}
