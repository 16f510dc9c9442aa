// The SQLite file of leads: durable settings and the schema, migrated step by step.
import { chmodSync, closeSync, existsSync, mkdirSync, openSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { LEAD_STATUSES } from '../contract/inbox.ts';
import { CHANGE_PRESENCE_SQLITE, CHANGE_SETS_SQLITE } from './schema-change-sets.ts';

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
  // sealed: field name to its encrypted value (shared/cipher.ts); data keeps only what may be read in clear.
  // idempotency_keys: one lead per (form, Idempotency-Key), so a double click or a retry never stores a second one.
  // meta: the id of the encryption key, so that a start with another key is refused at once.
  `ALTER TABLE leads ADD COLUMN sealed TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(sealed));
   CREATE INDEX leads_created ON leads (created_at);
   CREATE TABLE idempotency_keys (
     form_id TEXT NOT NULL,
     key TEXT NOT NULL,
     lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     created_at INTEGER NOT NULL,
     PRIMARY KEY (form_id, key)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX idempotency_expiry ON idempotency_keys (created_at);
   CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL) STRICT;`,
  // pending_since: when the alert started waiting (its lead was stored, or `retry-dead` revived it), epoch ms; it is
  // marked dead a set time after. Kept on the alert, with partial indexes holding only the alerts not delivered, so
  // the health check counts pending and dead alerts and finds the oldest without reading the delivered ones.
  `ALTER TABLE alerts ADD COLUMN pending_since INTEGER NOT NULL DEFAULT 0;
   UPDATE alerts SET pending_since = CAST(ROUND(unixepoch(leads.created_at, 'subsec') * 1000) AS INTEGER)
     FROM leads WHERE leads.id = alerts.lead_id;
   CREATE INDEX alerts_pending_since ON alerts (pending_since) WHERE status = 'pending';
   CREATE INDEX alerts_dead ON alerts (pending_since) WHERE status = 'dead';`,
  // fingerprint: a keyed hash of the fields a key was first sent with (never the fields), so the same key sent again
  // with other fields is refused instead of answered with the first lead. NULL for keys stored before it existed.
  `ALTER TABLE idempotency_keys ADD COLUMN fingerprint TEXT;`,
  // The admissions inbox. status: where admissions stand with the lead; the indexes serve its list newest first, alone
  // or filtered by status or form (they replace leads_created). lead_events: status changes and notes (sealed).
  // lead_terms: keyed hashes of the words of names, phones and e-mails (shared/search-terms.ts), so search never needs a value
  // in clear. audit: who read and changed what, each row chained to the one before by its hash (shared/audit-chain.ts); it has
  // no reference to leads, because it outlives them, and triggers refuse any change to a row once written.
  // The CHECK lists the statuses as they are now; a status added later needs a step of its own (SQLite cannot alter a
  // CHECK), not an edit of this one.
  `ALTER TABLE leads ADD COLUMN status TEXT NOT NULL DEFAULT 'new'
     CHECK (status IN (${LEAD_STATUSES.map((status) => `'${status}'`).join(', ')}));
   DROP INDEX leads_created;
   CREATE INDEX leads_newest ON leads (created_at DESC, id DESC);
   CREATE INDEX leads_by_status ON leads (status, created_at);
   CREATE INDEX leads_by_form ON leads (form_id, created_at);
   CREATE TABLE lead_events (
     id TEXT PRIMARY KEY,
     lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     at TEXT NOT NULL,
     author TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('status', 'note')),
     from_status TEXT,
     to_status TEXT,
     note_sealed TEXT
   ) STRICT;
   CREATE INDEX lead_events_of_lead ON lead_events (lead_id, at);
   CREATE TABLE lead_terms (
     term TEXT NOT NULL,
     lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     PRIMARY KEY (term, lead_id)
   ) STRICT, WITHOUT ROWID;
   CREATE INDEX lead_terms_of_lead ON lead_terms (lead_id);
   CREATE TABLE audit (
     seq INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     actor TEXT NOT NULL,
     action TEXT NOT NULL,
     lead_id TEXT,
     detail TEXT,
     prev_hash TEXT NOT NULL,
     hash TEXT NOT NULL
   ) STRICT;
   CREATE TRIGGER audit_no_update BEFORE UPDATE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;
   CREATE TRIGGER audit_no_delete BEFORE DELETE ON audit BEGIN SELECT RAISE(ABORT, 'the audit log is append-only'); END;`,
  // The staff of the admissions inbox (staff-store.ts). Times in epoch ms. Invitation tokens and session
  // ids are kept as SHA-256 hashes only; a WebAuthn challenge is deleted when used or expired.
  `CREATE TABLE staff (
     id TEXT PRIMARY KEY,
     email TEXT NOT NULL UNIQUE CHECK (email = lower(email)),
     admin INTEGER NOT NULL CHECK (admin IN (0, 1)),
     created_at INTEGER NOT NULL,
     revoked_at INTEGER
   ) STRICT;
   CREATE TABLE passkeys (
     id TEXT PRIMARY KEY,
     staff_id TEXT NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
     public_key BLOB NOT NULL,
     counter INTEGER NOT NULL,
     transports TEXT NOT NULL CHECK (json_valid(transports)),
     created_at INTEGER NOT NULL,
     last_used_at INTEGER
   ) STRICT;
   CREATE INDEX passkeys_staff ON passkeys (staff_id);
   CREATE TABLE invites (
     token_hash TEXT PRIMARY KEY,
     email TEXT NOT NULL,
     admin INTEGER NOT NULL CHECK (admin IN (0, 1)),
     expires_at INTEGER NOT NULL,
     used_at INTEGER
   ) STRICT;
   CREATE TABLE sessions (
     id_hash TEXT PRIMARY KEY,
     staff_id TEXT NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
     created_at INTEGER NOT NULL,
     last_seen_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX sessions_staff ON sessions (staff_id);
   CREATE TABLE webauthn_challenges (
     id INTEGER PRIMARY KEY,
     challenge TEXT NOT NULL UNIQUE,
     purpose TEXT NOT NULL CHECK (purpose IN ('enrol', 'sign-in', 'passkey')),
     staff_id TEXT,
     expires_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);`,
  // Sessions end when people leave, credentials when revoked. invites: when each was made (those before this step:
  // 24 hours before they expire, as every invitation then was), and whether and why it was cancelled (by an admin, or
  // by the revoke of its member: the unused invitations of members revoked before this step are cancelled here).
  // sessions: the last user-verified passkey assertion (adding a passkey needs a recent one) and the device in words.
  // passkeys: the device it was added from. webauthn_challenges: made again (SQLite cannot alter a CHECK; a challenge
  // lives 5 minutes) with the re-authentication's purpose.
  `ALTER TABLE invites ADD COLUMN created_at INTEGER NOT NULL DEFAULT 0;
   UPDATE invites SET created_at = expires_at - 86400000;
   ALTER TABLE invites ADD COLUMN cancelled_at INTEGER;
   ALTER TABLE invites ADD COLUMN cancel_reason TEXT CHECK (cancel_reason IN ('cancelled', 'revoked'));
   UPDATE invites SET cancelled_at = staff.revoked_at, cancel_reason = 'revoked'
     FROM staff WHERE staff.email = invites.email AND staff.revoked_at IS NOT NULL AND invites.used_at IS NULL;
   CREATE INDEX invites_email ON invites (email);
   ALTER TABLE sessions ADD COLUMN verified_at INTEGER;
   ALTER TABLE sessions ADD COLUMN device TEXT;
   ALTER TABLE passkeys ADD COLUMN name TEXT;
   DROP TABLE webauthn_challenges;
   CREATE TABLE webauthn_challenges (
     id INTEGER PRIMARY KEY,
     challenge TEXT NOT NULL UNIQUE,
     purpose TEXT NOT NULL CHECK (purpose IN ('enrol', 'sign-in', 'passkey', 'reauth')),
     staff_id TEXT,
     expires_at INTEGER NOT NULL
   ) STRICT;
   CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);`,
  // The network (IPv4 /24, IPv6 /64) that started each ceremony: one network's share of the table is bounded, and a
  // full table gives way from the network that holds most of it (StaffStore.saveChallenge).
  `ALTER TABLE webauthn_challenges ADD COLUMN network TEXT NOT NULL DEFAULT '';
   CREATE INDEX webauthn_challenges_network ON webauthn_challenges (network, id);`,
  // Whole-site releases (release-store.ts): each file's bytes once by SHA-256 (release_blobs, shared by every release
  // that holds them; documents too, as UTF-8), each release's paths to those hashes, the one live pointer (a single row,
  // changed by compare-and-set), every change of it as an event, each instance's last report, and the publish lock (a
  // single row naming its holder's process). A release and its lists, and the events, are never changed nor deleted
  // (triggers refuse it): they are the evidence of what the site said. Ids are 1, 2, 3 in the order stored.
  `CREATE TABLE release_blobs (hash TEXT PRIMARY KEY, bytes BLOB NOT NULL) STRICT;
   CREATE TABLE releases (
     id INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     author TEXT NOT NULL,
     message TEXT NOT NULL,
     code_version TEXT NOT NULL,
     content_hash TEXT NOT NULL
   ) STRICT;
   CREATE TABLE release_files (
     release_id INTEGER NOT NULL REFERENCES releases(id),
     path TEXT NOT NULL,
     hash TEXT NOT NULL REFERENCES release_blobs(hash),
     PRIMARY KEY (release_id, path)
   ) STRICT, WITHOUT ROWID;
   CREATE TABLE release_documents (
     release_id INTEGER NOT NULL REFERENCES releases(id),
     path TEXT NOT NULL,
     hash TEXT NOT NULL REFERENCES release_blobs(hash),
     PRIMARY KEY (release_id, path)
   ) STRICT, WITHOUT ROWID;
   CREATE TABLE live_release (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     release_id INTEGER NOT NULL REFERENCES releases(id),
     generation INTEGER NOT NULL
   ) STRICT;
   CREATE TABLE release_events (
     seq INTEGER PRIMARY KEY,
     at TEXT NOT NULL,
     kind TEXT NOT NULL CHECK (kind IN ('publish', 'rollback', 'deploy')),
     release_id INTEGER NOT NULL REFERENCES releases(id),
     previous_id INTEGER REFERENCES releases(id),
     actor TEXT NOT NULL
   ) STRICT;
   CREATE TABLE release_instances (instance TEXT PRIMARY KEY, release_id INTEGER NOT NULL, at TEXT NOT NULL) STRICT;
   CREATE TABLE publish_lock (
     id INTEGER PRIMARY KEY CHECK (id = 1),
     pid INTEGER NOT NULL,
     host TEXT NOT NULL,
     token TEXT NOT NULL,
     at TEXT NOT NULL
   ) STRICT;
   CREATE TRIGGER release_blobs_no_update BEFORE UPDATE ON release_blobs BEGIN SELECT RAISE(ABORT, 'a stored file never changes'); END;
   CREATE TRIGGER releases_no_update BEFORE UPDATE ON releases BEGIN SELECT RAISE(ABORT, 'releases are kept as stored'); END;
   CREATE TRIGGER releases_no_delete BEFORE DELETE ON releases BEGIN SELECT RAISE(ABORT, 'releases are kept as stored'); END;
   CREATE TRIGGER release_files_no_update BEFORE UPDATE ON release_files BEGIN SELECT RAISE(ABORT, 'releases are kept as stored'); END;
   CREATE TRIGGER release_files_no_delete BEFORE DELETE ON release_files BEGIN SELECT RAISE(ABORT, 'releases are kept as stored'); END;
   CREATE TRIGGER release_documents_no_update BEFORE UPDATE ON release_documents BEGIN SELECT RAISE(ABORT, 'releases are kept as stored'); END;
   CREATE TRIGGER release_documents_no_delete BEFORE DELETE ON release_documents BEGIN SELECT RAISE(ABORT, 'releases are kept as stored'); END;
   CREATE TRIGGER release_events_no_update BEFORE UPDATE ON release_events BEGIN SELECT RAISE(ABORT, 'release events are append-only'); END;
   CREATE TRIGGER release_events_no_delete BEFORE DELETE ON release_events BEGIN SELECT RAISE(ABORT, 'release events are append-only'); END;`,
  // The admissions desk (docs/decisions/2026-11-28-admissions-desk.md). staff.roles and invites.roles: a JSON list of
  // role names (admissions, admin; more to come), without a CHECK so a new role needs no step; `admin` stays, written
  // in step with the list, for older readers. leads.promised_at: when the form's promise falls due (arrival + its
  // promiseMinutes); due_at: what is due next (that promise, or a callback), NULL once nothing is; owner: the e-mail of
  // the member calling; first_contact_at: the first call that reached them (the promise kept or not); attempts: calls
  // made; escalated_at: the last chat escalation of a lead past due and unclaimed. Leads stored before this step were promised nothing in data: due at their arrival, when still new or not
  // reached. lead_calls: each call's outcome and the callback asked for, in clear (no patient data: a word from a list).
  `ALTER TABLE staff ADD COLUMN roles TEXT NOT NULL DEFAULT '["admissions"]' CHECK (json_valid(roles));
   UPDATE staff SET roles = '["admissions","admin"]' WHERE admin = 1;
   ALTER TABLE invites ADD COLUMN roles TEXT NOT NULL DEFAULT '["admissions"]' CHECK (json_valid(roles));
   UPDATE invites SET roles = '["admissions","admin"]' WHERE admin = 1;
   ALTER TABLE leads ADD COLUMN promised_at TEXT;
   ALTER TABLE leads ADD COLUMN due_at TEXT;
   ALTER TABLE leads ADD COLUMN owner TEXT;
   ALTER TABLE leads ADD COLUMN first_contact_at TEXT;
   ALTER TABLE leads ADD COLUMN attempts INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE leads ADD COLUMN escalated_at TEXT;
   UPDATE leads SET promised_at = created_at,
     due_at = CASE WHEN status IN ('new', 'not-reached') THEN created_at END;
   CREATE INDEX leads_due ON leads (due_at, id) WHERE due_at IS NOT NULL;
   CREATE INDEX leads_by_owner ON leads (owner, due_at) WHERE owner IS NOT NULL;
   CREATE TABLE lead_calls (
     id TEXT PRIMARY KEY,
     lead_id TEXT NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     at TEXT NOT NULL,
     author TEXT NOT NULL,
     outcome TEXT NOT NULL,
     callback_at TEXT
   ) STRICT;
   CREATE INDEX lead_calls_of_lead ON lead_calls (lead_id, at);`,
  // releases.reviews: the clinical reviews that hold for a release's pages, by page path (renderer/medical-review.ts):
  // the record the "Medically reviewed by" line is rendered from, kept with the release it was rendered into.
  `ALTER TABLE releases ADD COLUMN reviews TEXT NOT NULL DEFAULT '{}' CHECK (json_valid(reviews));`,
  // The desk's second part. leads.merged_into: the lead this one was merged into on request (closed, kept, never
  // deleted). staff.on_shift: the member takes round-robin leads (ROUND_ROBIN); staff.turn: the rotation's counter at
  // their last lead (0: never), so the next lead goes to the on-shift member whose turn is oldest. leads.owner_auto: 1
  // while the owner is round robin's choice, not yet their own act (a claim or a call): escalated as if unowned.
  `ALTER TABLE leads ADD COLUMN merged_into TEXT;
   ALTER TABLE leads ADD COLUMN owner_auto INTEGER NOT NULL DEFAULT 0;
   CREATE INDEX leads_merged_into ON leads (merged_into) WHERE merged_into IS NOT NULL;
   ALTER TABLE staff ADD COLUMN on_shift INTEGER NOT NULL DEFAULT 0;
   ALTER TABLE staff ADD COLUMN turn INTEGER NOT NULL DEFAULT 0;`,
  // Editorial roles (issue #28; docs/decisions/2026-11-28-change-sets.md): a member's display name and clinical
  // credential, and the ones an invitation gives at enrolment. The roles themselves need no step (a JSON list).
  `ALTER TABLE staff ADD COLUMN display_name TEXT;
   ALTER TABLE staff ADD COLUMN credential TEXT;
   ALTER TABLE invites ADD COLUMN display_name TEXT;
   ALTER TABLE invites ADD COLUMN credential TEXT;`,
  // Change sets (issue #28; server/store/contract/change-store.ts, docs/decisions/2026-11-28-change-sets.md): a set, its
  // documents (base text, current text, version: compare-and-set), every save kept as a revision, approvals bound to a
  // content hash, comments, a scheduled publish (claimed with a lease) and preview links kept by their token's hash.
  CHANGE_SETS_SQLITE,
  // Presence across instances (issue #28): who is editing a document now, a row per member and document, pruned.
  CHANGE_PRESENCE_SQLITE,
];
export const SCHEMA_VERSION = MIGRATIONS.length;

/** Longest wait for another connection's lock; the writer thread waits less when a visitor's deadline is nearer. */
export const BUSY_TIMEOUT_MS = 5000;

function migrate(db: Database.Database, target: number): void {
  const version = db.pragma('user_version', { simple: true }) as number;
  if (version > MIGRATIONS.length)
    throw new Error(
      `Lead database schema version ${version} is newer than this server knows (${MIGRATIONS.length})`,
    );
  MIGRATIONS.slice(version, target).forEach((sql, index) => {
    db.transaction(() => {
      db.exec(sql);
      db.pragma(`user_version = ${version + index + 1}`);
    }).immediate();
  });
}

/**
 * Opens (and creates or migrates) the SQLite lead database at `path`; ':memory:' for a throwaway one. `schemaVersion`
 * stops the migration there: for tests that write a database as an older server did.
 */
export function openLeadDatabase(path: string, schemaVersion = SCHEMA_VERSION): Database.Database {
  if (path !== ':memory:') createPrivately(path);
  const db = new Database(path);
  try {
    // WAL lets readers (the server's own thread, the staff CLI) work during writes; FULL makes a commit survive a
    // power cut before it returns, and so before the lead's 2xx.
    db.pragma('journal_mode = WAL');
    db.pragma('synchronous = FULL');
    db.pragma('foreign_keys = ON');
    // Freed pages are zeroed: a resealed, purged or deleted value leaves no copy in the file's free space.
    db.pragma('secure_delete = ON');
    // The WAL is cut back to nothing each time a checkpoint empties it: frames of rows deleted or resealed since
    // (sealed copies of a purged lead) do not linger at its end.
    db.pragma('journal_size_limit = 0');
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    migrate(db, schemaVersion);
  } catch (error) {
    db.close();
    throw error;
  }
  return db;
}

/** Only its owner reads or writes the database: files 0600 (SQLite gives its -wal and -shm the file's mode). */
export const PRIVATE_FILE = 0o600;
/** A folder the server creates for it: 0700. An existing folder is the operator's, and left as it is. */
export const PRIVATE_FOLDER = 0o700;

/**
 * The database's folder created 0700 where missing, and its file 0600 before SQLite opens it (SQLite would create it
 * with the process's umask, usually readable by everyone); an existing file, -wal or -shm of ours tightened to 0600.
 */
export function createPrivately(path: string): void {
  mkdirSync(dirname(path), { recursive: true, mode: PRIVATE_FOLDER });
  if (!existsSync(path))
    try {
      closeSync(openSync(path, 'wx', PRIVATE_FILE));
    } catch (error) {
      // Another process created it meanwhile: it is tightened below.
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
  for (const file of [path, `${path}-wal`, `${path}-shm`])
    if (existsSync(file))
      try {
        chmodSync(file, PRIVATE_FILE);
      } catch {
        // Another user's file (an operator reading with npm run leads): theirs to set.
      }
}

export function readMeta(db: Database.Database, name: string): string | undefined {
  const row = db.prepare<[string], { value: string }>('SELECT value FROM meta WHERE name = ?').get(name);
  return row?.value;
}

export function writeMeta(db: Database.Database, name: string, value: string): void {
  db.prepare(
    'INSERT INTO meta (name, value) VALUES (?, ?) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
  ).run(name, value);
}
