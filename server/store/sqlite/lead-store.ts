// The lead store on SQLite (the contract: contract/lead-store.ts). Every submitted value is sealed (encrypted), and
// its search terms hashed, before it leaves this thread; reads open them only where asked.
// Writes go through the one writer of the database (single-writer.ts) and settle once committed; reads are answered at
// once from this thread's own connection, which WAL lets read beside the writer.
import type { AlertStatus, LeadStore, StoredLead, StoreOptions } from '../contract/lead-store.ts';
import type { ReleaseStore } from '../contract/release-store.ts';
import type { LeadRow } from '../contract/rows.ts';
import { leadListeners } from '../shared/lead-listeners.ts';
import { memoryCounters } from '../shared/memory-counters.ts';
import { prepareLead, promiseFor } from '../shared/prepare-lead.ts';
import { createSealer, openSource, termsFor, type Sealer } from '../shared/sealing.ts';
import { auditSigner } from '../shared/audit-keys.ts';
import { auditHeadFileOf, createSqliteAuditLog } from './audit-log.ts';
import { createSqliteInboxStore } from './inbox-store.ts';
import { unlockDatabase } from './keys.ts';
import { sealLegacyLeads } from './reseal.ts';
import { createSqliteReleaseStore } from './release-store.ts';
import { openLeadDatabase } from './schema.ts';
import { createLeadWriter } from './single-writer.ts';
import { sqliteStaffStore } from './staff-store.ts';
import { sqliteChangeStore } from './change-store.ts';

export interface LeadStoreOptions extends StoreOptions {
  /**
   * Write in a worker thread (the server: its event loop never waits for the disk), or on this thread (the staff CLI,
   * whose rare writes need no thread). An in-memory database is always written on this thread.
   */
  writerThread?: boolean;
}

const PURGE_BATCH = 500;

interface AlertRow {
  status: AlertStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  delivered_at: string | null;
  pending_since: number;
}

const toLead = (row: LeadRow, data: Record<string, string>, sealer: Sealer): StoredLead => ({
  id: row.id,
  formId: row.form_id,
  createdAt: row.created_at,
  source: openSource(sealer, row),
  data,
});

/** Opens (creating or migrating) the lead database at `path` and unlocks it; ':memory:' for a throwaway one. */
export function openLeadStore(path: string, options: LeadStoreOptions = {}): LeadStore {
  const db = openLeadDatabase(path);
  let unlocked: ReturnType<typeof unlockDatabase>;
  try {
    unlocked = unlockDatabase(db, path, options);
  } catch (error) {
    db.close();
    throw error;
  }
  const { keyring, keySource } = unlocked;
  const sealer = createSealer(keyring);
  const inThread = path !== ':memory:' && (options.writerThread ?? true);
  const writer = createLeadWriter(path, inThread ? undefined : db, { maxQueued: options.maxQueuedWrites });

  const termsOf = termsFor(sealer, options.forms);
  const promiseOf = promiseFor(options.forms);
  const audit = createSqliteAuditLog(db, {
    signer: auditSigner(keyring, options.auditKey),
    headFile: auditHeadFileOf(path),
    onHead: options.onAuditHead,
  });
  const { onLeadStored, tell } = leadListeners();
  // Changes made by staff (claims, statuses, notes, calls): one server process on SQLite, so told in process.
  const changes = leadListeners();
  const inbox = createSqliteInboxStore({
    db,
    sealer,
    onLeadStored,
    onLeadChanged: changes.onLeadStored,
    changed: changes.tell,
    writer,
  });

  const selectLead = db.prepare<[string], LeadRow>('SELECT * FROM leads WHERE id = ?');
  const selectListed = db.prepare<[string], LeadRow & { alert: AlertStatus }>(
    `SELECT leads.*, alerts.status AS alert FROM leads JOIN alerts ON alerts.lead_id = leads.id
     WHERE leads.created_at >= ? ORDER BY leads.created_at, leads.id`,
  );
  const selectAlert = db.prepare<[string], AlertRow>('SELECT * FROM alerts WHERE lead_id = ?');
  const selectNextDue = db.prepare<[], { due: number | null }>(
    "SELECT MIN(next_attempt_at) AS due FROM alerts WHERE status = 'pending'",
  );
  const selectBacklog = db.prepare<[], { pending: number; dead: number; oldest: number | null }>(
    `SELECT (SELECT COUNT(*) FROM alerts WHERE status = 'pending') AS pending,
            (SELECT COUNT(*) FROM alerts WHERE status = 'dead') AS dead,
            (SELECT MIN(pending_since) FROM alerts WHERE status = 'pending') AS oldest`,
  );
  const probe = db.prepare('SELECT 1 FROM leads LIMIT 1');
  // Releases on this thread's connection, not the writer's: their big writes never queue behind leads nor leads behind
  // them for long (release-store.ts writes in short transactions). Not on a third connection: with one, a frozen disk
  // held this thread up (tests/server/store/store-stall.test.ts).
  const releaseStore = createSqliteReleaseStore(db);
  // What a serving instance does every second or two goes through the writer (write-ops.ts says why); the rest (a
  // publish, a swap's read of a release) is rare, and stays on the release connection.
  const releases: ReleaseStore = {
    ...releaseStore,
    live: async () => (await writer.run({ kind: 'live-release' })) ?? undefined,
    reportServing: async (instance, releaseId) =>
      void (await writer.run({ kind: 'report-serving', instance, releaseId, at: new Date().toISOString() })),
    forgetInstance: async (instance) => void (await writer.run({ kind: 'forget-instance', instance })),
  };

  return {
    keySource,
    audit,
    inbox,
    fingerprint: (text) => sealer.fingerprints(text)[0] ?? '',
    fingerprints: (text) => sealer.fingerprints(text),
    async insertLead(lead, { deadline } = {}) {
      const result = await writer.run({
        kind: 'insert',
        lead: prepareLead(lead, sealer, termsOf, promiseOf),
        deadline,
      });
      // After the commit, and only for a lead written now: a repeat of an earlier one is no news.
      if (!result.replayed) tell(result.id);
      return result;
    },
    async getLead(id) {
      const row = selectLead.get(id);
      return row && toLead(row, sealer.openAll(row), sealer);
    },
    async listLeads({ since } = {}) {
      return selectListed
        .all(since ?? '')
        .map((row) => ({ ...toLead(row, sealer.openAll(row), sealer), alert: row.alert }));
    },
    async getAlert(leadId) {
      const row = selectAlert.get(leadId);
      return (
        row && {
          status: row.status,
          attempts: row.attempts,
          pendingSince: row.pending_since,
          nextAttemptAt: row.next_attempt_at,
          lastError: row.last_error,
          deliveredAt: row.delivered_at,
        }
      );
    },
    async claimDueAlerts({ now, limit, leaseMs }) {
      const rows = await writer.run({ kind: 'claim', now, limit, leaseMs });
      return rows.map((row) => ({
        lead: toLead(row, sealer.openAll(row), sealer),
        attempt: row.attempts + 1,
        pendingSince: row.pending_since,
      }));
    },
    nextAlertDueAt: async () => selectNextDue.get()?.due ?? undefined,
    async markDelivered(leadIds, at) {
      await writer.run({ kind: 'delivered', leadIds, at: at.toISOString() });
    },
    async scheduleRetry(leadId, nextAttemptAt, error, { counted = true } = {}) {
      await writer.run({ kind: 'retry', leadId, nextAttemptAt, error, counted });
    },
    async markDead(leadId, error) {
      await writer.run({ kind: 'dead', leadId, error });
    },
    retryDeadAlerts: (now) => writer.run({ kind: 'revive', now }),
    async purgeOlderThan(cutoff) {
      const before = new Date(cutoff).toISOString();
      let count = 0;
      // Batches: each is one short transaction, so visitors' leads queued meanwhile are not held behind a long one.
      for (;;) {
        const done = await writer.run({ kind: 'purge', before, limit: PURGE_BATCH });
        count += done;
        if (done < PURGE_BATCH) break;
      }
      // An hourly run that found nothing is no act on anyone's data: only purges that deleted are audited.
      if (count > 0) await audit.append({ actor: 'server', action: 'purge', detail: `count=${count}` });
      // The purged leads' pages are zeroed in the file (secure_delete), but their sealed values stay in the WAL's older
      // frames until it is emptied: moved into the file and cut to nothing now (a reader still open may delay it to
      // the next purge, or the next checkpoint, journal_size_limit).
      if (count > 0) db.pragma('wal_checkpoint(TRUNCATE)');
      return count;
    },
    async alertBacklog() {
      const row = selectBacklog.get();
      return {
        pending: row?.pending ?? 0,
        dead: row?.dead ?? 0,
        oldestPendingSince: row?.oldest ?? undefined,
      };
    },
    sealLegacyLeads: async () => sealLegacyLeads(db, sealer, termsOf),
    async isHealthy() {
      try {
        probe.get();
      } catch {
        return false;
      }
      return writer.healthy();
    },
    async close() {
      await writer.close();
      db.close();
    },
    // The key current at open: a rotation signs staff out at the next restart, never mid-session.
    staff: sqliteStaffStore(db, keyring.current().key),
    // One instance per SQLite file: its counts live in its memory, and a restart forgives everyone.
    rateCounters: memoryCounters,
    releases,
    changes: sqliteChangeStore(db, writer),
  };
}
