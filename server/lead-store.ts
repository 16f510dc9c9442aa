// Leads and their outgoing chat alerts (an outbox): written together, so a stored lead always has an alert to send.
import { mkdirSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomUUID } from 'node:crypto';
import Database from 'better-sqlite3';

export type AlertStatus = 'pending' | 'delivered' | 'dead';

export interface StoredLead {
  id: string;
  formId: string;
  /** ISO 8601, UTC. */
  createdAt: string;
  /** Site path of the page the form was sent from. */
  source: string;
  data: Record<string, string>;
}

export interface AlertState {
  status: AlertStatus;
  /** Delivery attempts started so far. */
  attempts: number;
  /** Epoch milliseconds; meaningful while pending. */
  nextAttemptAt: number;
  lastError: string | null;
  deliveredAt: string | null;
}

/** An alert claimed for delivery, with the attempt it is on (1 for the first). */
export interface DueAlert {
  lead: StoredLead;
  attempt: number;
}

/** What the form API and the alert worker need from a store; SQLite today, another database later. */
export interface LeadStore {
  /** Stores the lead and its pending alert in one transaction; returns the lead id. */
  insertLead(formId: string, data: Record<string, string>, source: string): string;
  getLead(id: string): StoredLead | undefined;
  getAlert(leadId: string): AlertState | undefined;
  /**
   * Claims up to `limit` pending alerts due at `now`, counting the attempt and hiding them for `leaseMs`: if the
   * process dies mid-delivery they become due again (delivery is at least once; every message carries the lead id).
   */
  claimDueAlerts(options: { now: number; limit: number; leaseMs: number }): DueAlert[];
  /** When the next pending alert is due (epoch ms), or undefined when none is pending. */
  nextAlertDueAt(): number | undefined;
  markDelivered(leadId: string, at: Date): void;
  scheduleRetry(leadId: string, nextAttemptAt: number, error: string): void;
  markDead(leadId: string, error: string): void;
  close(): void;
}

// Index n holds the step from user_version n to n + 1; append, never edit a released step.
const MIGRATIONS = [
  `CREATE TABLE leads (
     id TEXT PRIMARY KEY,
     form_id TEXT NOT NULL,
     created_at TEXT NOT NULL,
     source TEXT NOT NULL,
     data TEXT NOT NULL CHECK (json_valid(data))
   ) STRICT;
   CREATE TABLE alerts (
     lead_id TEXT PRIMARY KEY REFERENCES leads(id) ON DELETE CASCADE,
     status TEXT NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
     attempts INTEGER NOT NULL DEFAULT 0,
     next_attempt_at INTEGER NOT NULL,
     last_error TEXT,
     delivered_at TEXT
   ) STRICT;
   CREATE INDEX alerts_due ON alerts (next_attempt_at) WHERE status = 'pending';`,
];

function migrate(db: Database.Database): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length)
    throw new Error(
      `Lead database schema version ${version} is newer than this server knows (${MIGRATIONS.length})`,
    );
  MIGRATIONS.slice(version).forEach((sql, index) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + index + 1}`);
    }).immediate();
  });
}

interface LeadRow {
  id: string;
  form_id: string;
  created_at: string;
  source: string;
  data: string;
}
interface AlertRow {
  status: AlertStatus;
  attempts: number;
  next_attempt_at: number;
  last_error: string | null;
  delivered_at: string | null;
}

const toLead = (row: LeadRow): StoredLead => ({
  id: row.id,
  formId: row.form_id,
  createdAt: row.created_at,
  source: row.source,
  data: JSON.parse(row.data) as Record<string, string>,
});

/** Opens (and creates or migrates) the SQLite lead database at `path`; ':memory:' for a throwaway one. */
export function openLeadStore(path: string): LeadStore {
  if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
  const db = new Database(path);
  // WAL lets readers (the staff CLI) work during writes; FULL makes a commit survive power loss before the 2xx.
  db.pragma('journal_mode = WAL');
  db.pragma('synchronous = FULL');
  db.pragma('foreign_keys = ON');
  db.pragma('busy_timeout = 5000');
  migrate(db);

  const insertLeadRow = db.prepare(
    'INSERT INTO leads (id, form_id, created_at, source, data) VALUES (?, ?, ?, ?, ?)',
  );
  const insertAlertRow = db.prepare(
    "INSERT INTO alerts (lead_id, status, attempts, next_attempt_at) VALUES (?, 'pending', 0, ?)",
  );
  const selectLead = db.prepare<[string], LeadRow>('SELECT * FROM leads WHERE id = ?');
  const selectAlert = db.prepare<[string], AlertRow>('SELECT * FROM alerts WHERE lead_id = ?');
  const selectDue = db.prepare<[number, number], LeadRow & { attempts: number }>(
    `SELECT leads.*, alerts.attempts FROM alerts JOIN leads ON leads.id = alerts.lead_id
     WHERE alerts.status = 'pending' AND alerts.next_attempt_at <= ? ORDER BY alerts.next_attempt_at LIMIT ?`,
  );
  const claim = db.prepare(
    'UPDATE alerts SET attempts = attempts + 1, next_attempt_at = ? WHERE lead_id = ?',
  );
  const selectNextDue = db.prepare<[], { due: number | null }>(
    "SELECT MIN(next_attempt_at) AS due FROM alerts WHERE status = 'pending'",
  );
  const delivered = db.prepare(
    "UPDATE alerts SET status = 'delivered', delivered_at = ?, last_error = NULL WHERE lead_id = ?",
  );
  const retry = db.prepare('UPDATE alerts SET next_attempt_at = ?, last_error = ? WHERE lead_id = ?');
  const dead = db.prepare("UPDATE alerts SET status = 'dead', last_error = ? WHERE lead_id = ?");

  const insertBoth = db.transaction((id: string, formId: string, data: string, source: string, now: Date) => {
    insertLeadRow.run(id, formId, now.toISOString(), source, data);
    insertAlertRow.run(id, now.getTime());
  });
  const claimDue = db.transaction((now: number, limit: number, leaseMs: number): DueAlert[] =>
    selectDue.all(now, limit).map((row) => {
      claim.run(now + leaseMs, row.id);
      return { lead: toLead(row), attempt: row.attempts + 1 };
    }),
  );

  return {
    insertLead(formId, data, source) {
      const id = randomUUID();
      // IMMEDIATE takes the write lock up front, so a concurrent writer waits instead of failing mid-transaction.
      insertBoth.immediate(id, formId, JSON.stringify(data), source, new Date());
      return id;
    },
    getLead(id) {
      const row = selectLead.get(id);
      return row && toLead(row);
    },
    getAlert(leadId) {
      const row = selectAlert.get(leadId);
      return (
        row && {
          status: row.status,
          attempts: row.attempts,
          nextAttemptAt: row.next_attempt_at,
          lastError: row.last_error,
          deliveredAt: row.delivered_at,
        }
      );
    },
    claimDueAlerts: ({ now, limit, leaseMs }) => claimDue.immediate(now, limit, leaseMs),
    nextAlertDueAt: () => selectNextDue.get()?.due ?? undefined,
    markDelivered(leadId, at) {
      delivered.run(at.toISOString(), leadId);
    },
    scheduleRetry(leadId, nextAttemptAt, error) {
      retry.run(Math.round(nextAttemptAt), error, leadId);
    },
    markDead(leadId, error) {
      dead.run(error, leadId);
    },
    close() {
      db.close();
    },
  };
}
