// The lead database on PostgreSQL: the same tables as the SQLite file (sqlite/schema.ts), in one versioned migration list
// run at start under an advisory lock, so two instances starting together never migrate at once. Times are kept as
// they are in SQLite (ISO 8601 text where compared as text, epoch milliseconds as bigint), so both stores share the
// cursors, the sealing and the queries' meaning.
import pg from 'pg';
import { LEAD_STATUSES } from '../contract/inbox.ts';
import { CHANGE_PRESENCE_POSTGRES, CHANGE_SETS_POSTGRES } from './pg-schema-change-sets.ts';

// Index n holds the step from version n to n + 1; append, never edit a released step.
const MIGRATIONS = [
  `CREATE TABLE meta (name text PRIMARY KEY, value text NOT NULL);
   CREATE TABLE leads (
     id text PRIMARY KEY,
     form_id text NOT NULL,
     created_at text NOT NULL,
     source text NOT NULL,
     data text NOT NULL DEFAULT '{}',
     sealed text NOT NULL DEFAULT '{}',
     status text NOT NULL DEFAULT 'new'
       CHECK (status IN (${LEAD_STATUSES.map((status) => `'${status}'`).join(', ')}))
   );
   CREATE INDEX leads_newest ON leads (created_at DESC, id DESC);
   CREATE INDEX leads_by_status ON leads (status, created_at);
   CREATE INDEX leads_by_form ON leads (form_id, created_at);
   CREATE TABLE alerts (
     lead_id text PRIMARY KEY REFERENCES leads(id) ON DELETE CASCADE,
     status text NOT NULL CHECK (status IN ('pending', 'delivered', 'dead')),
     attempts integer NOT NULL DEFAULT 0,
     next_attempt_at bigint NOT NULL,
     last_error text,
     delivered_at text,
     pending_since bigint NOT NULL
   );
   CREATE INDEX alerts_due ON alerts (next_attempt_at) WHERE status = 'pending';
   CREATE INDEX alerts_pending_since ON alerts (pending_since) WHERE status = 'pending';
   CREATE INDEX alerts_dead ON alerts (pending_since) WHERE status = 'dead';
   CREATE TABLE idempotency_keys (
     form_id text NOT NULL,
     key text NOT NULL,
     lead_id text NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     created_at bigint NOT NULL,
     fingerprint text,
     PRIMARY KEY (form_id, key)
   );
   CREATE INDEX idempotency_expiry ON idempotency_keys (created_at);
   CREATE INDEX idempotency_of_lead ON idempotency_keys (lead_id);
   CREATE TABLE lead_events (
     id text PRIMARY KEY,
     lead_id text NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     at text NOT NULL,
     author text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('status', 'note')),
     from_status text,
     to_status text,
     note_sealed text
   );
   CREATE INDEX lead_events_of_lead ON lead_events (lead_id, at);
   CREATE TABLE lead_terms (
     term text NOT NULL,
     lead_id text NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     PRIMARY KEY (term, lead_id)
   );
   CREATE INDEX lead_terms_of_lead ON lead_terms (lead_id);
   CREATE TABLE audit (
     seq bigint PRIMARY KEY,
     at text NOT NULL,
     actor text NOT NULL,
     action text NOT NULL,
     lead_id text,
     detail text,
     prev_hash text NOT NULL,
     hash text NOT NULL
   );
   CREATE FUNCTION audit_append_only() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'the audit log is append-only'; END $$;
   CREATE TRIGGER audit_no_change BEFORE UPDATE OR DELETE ON audit
     FOR EACH ROW EXECUTE FUNCTION audit_append_only();
   CREATE TABLE staff (
     id text PRIMARY KEY,
     email text NOT NULL UNIQUE CHECK (email = lower(email)),
     admin integer NOT NULL CHECK (admin IN (0, 1)),
     created_at bigint NOT NULL,
     revoked_at bigint
   );
   CREATE TABLE passkeys (
     id text PRIMARY KEY,
     staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
     public_key bytea NOT NULL,
     counter bigint NOT NULL,
     transports text NOT NULL,
     created_at bigint NOT NULL,
     last_used_at bigint
   );
   CREATE INDEX passkeys_staff ON passkeys (staff_id);
   CREATE TABLE invites (
     token_hash text PRIMARY KEY,
     email text NOT NULL,
     admin integer NOT NULL CHECK (admin IN (0, 1)),
     expires_at bigint NOT NULL,
     used_at bigint
   );
   CREATE TABLE sessions (
     id_hash text PRIMARY KEY,
     staff_id text NOT NULL REFERENCES staff(id) ON DELETE CASCADE,
     created_at bigint NOT NULL,
     last_seen_at bigint NOT NULL
   );
   CREATE INDEX sessions_staff ON sessions (staff_id);
   CREATE TABLE webauthn_challenges (
     id bigserial PRIMARY KEY,
     challenge text NOT NULL UNIQUE,
     purpose text NOT NULL CHECK (purpose IN ('enrol', 'sign-in', 'passkey')),
     staff_id text,
     expires_at bigint NOT NULL
   );
   CREATE INDEX webauthn_challenges_expiry ON webauthn_challenges (expires_at);`,
  // Rate-limit counters, in the columns rate-limiter-flexible's RateLimiterPostgres reads (pg-rate-limits.ts).
  `CREATE TABLE rate_limits (key varchar(255) PRIMARY KEY, points integer NOT NULL DEFAULT 0, expire bigint);
   CREATE INDEX rate_limits_expiry ON rate_limits (expire);`,
  // Counts are not worth a wait for the disk: unlogged, a count's commit is not flushed to disk, so a lead's two counts
  // no longer hold the one site-wide counter's row locked for an fsync each. A crash of the database empties the table
  // (everyone's limit starts afresh, as a restart does beside SQLite, whose counts live in memory).
  'ALTER TABLE rate_limits SET UNLOGGED;',
  // The network (IPv4 /24, IPv6 /64) that started each ceremony (StaffStore.saveChallenge).
  `ALTER TABLE webauthn_challenges ADD COLUMN network text NOT NULL DEFAULT '';
   CREATE INDEX webauthn_challenges_network ON webauthn_challenges (network, id);`,
  // TRUNCATE skips row triggers: a statement trigger refuses it. audit_head: the checkpoint of the audit chain's newest
  // row (signed, shared/audit-chain.ts), one row updated with each append and never deleted, so a cut tail is found.
  `CREATE TRIGGER audit_no_truncate BEFORE TRUNCATE ON audit
     FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();
   CREATE TABLE audit_head (
     id integer PRIMARY KEY CHECK (id = 1),
     seq bigint NOT NULL,
     hash text NOT NULL,
     key_id text NOT NULL,
     mac text NOT NULL,
     broken text
   );
   CREATE TRIGGER audit_head_no_delete BEFORE DELETE ON audit_head
     FOR EACH ROW EXECUTE FUNCTION audit_append_only();
   CREATE TRIGGER audit_head_no_truncate BEFORE TRUNCATE ON audit_head
     FOR EACH STATEMENT EXECUTE FUNCTION audit_append_only();`,
  // Sessions end when people leave, credentials when revoked: the SQLite file's step of the same name
  // (sqlite/schema.ts), in PostgreSQL's words.
  `ALTER TABLE invites ADD COLUMN created_at bigint;
   UPDATE invites SET created_at = expires_at - 86400000;
   ALTER TABLE invites ALTER COLUMN created_at SET NOT NULL,
     ADD COLUMN cancelled_at bigint,
     ADD COLUMN cancel_reason text CHECK (cancel_reason IN ('cancelled', 'revoked'));
   UPDATE invites SET cancelled_at = staff.revoked_at, cancel_reason = 'revoked'
     FROM staff WHERE staff.email = invites.email AND staff.revoked_at IS NOT NULL AND invites.used_at IS NULL;
   CREATE INDEX invites_email ON invites (email);
   ALTER TABLE sessions ADD COLUMN verified_at bigint, ADD COLUMN device text;
   ALTER TABLE passkeys ADD COLUMN name text;
   ALTER TABLE webauthn_challenges DROP CONSTRAINT webauthn_challenges_purpose_check,
     ADD CONSTRAINT webauthn_challenges_purpose_check
       CHECK (purpose IN ('enrol', 'sign-in', 'passkey', 'reauth'));`,
  // Whole-site releases: the SQLite file's step of the same name (sqlite/schema.ts), in PostgreSQL's words. Ids are
  // given under a table lock (max + 1), not by a sequence, so they run 1, 2, 3 without the gaps a failed insert leaves.
  `CREATE TABLE release_blobs (hash text PRIMARY KEY, bytes bytea NOT NULL);
   CREATE TABLE releases (
     id integer PRIMARY KEY,
     at text NOT NULL,
     author text NOT NULL,
     message text NOT NULL,
     code_version text NOT NULL,
     content_hash text NOT NULL
   );
   CREATE TABLE release_files (
     release_id integer NOT NULL REFERENCES releases(id),
     path text NOT NULL,
     hash text NOT NULL REFERENCES release_blobs(hash),
     PRIMARY KEY (release_id, path)
   );
   CREATE TABLE release_documents (
     release_id integer NOT NULL REFERENCES releases(id),
     path text NOT NULL,
     hash text NOT NULL REFERENCES release_blobs(hash),
     PRIMARY KEY (release_id, path)
   );
   CREATE TABLE live_release (
     id integer PRIMARY KEY CHECK (id = 1),
     release_id integer NOT NULL REFERENCES releases(id),
     generation bigint NOT NULL
   );
   CREATE TABLE release_events (
     seq bigint GENERATED BY DEFAULT AS IDENTITY PRIMARY KEY,
     at text NOT NULL,
     kind text NOT NULL CHECK (kind IN ('publish', 'rollback', 'deploy')),
     release_id integer NOT NULL REFERENCES releases(id),
     previous_id integer REFERENCES releases(id),
     actor text NOT NULL
   );
   CREATE TABLE release_instances (instance text PRIMARY KEY, release_id integer NOT NULL, at text NOT NULL);
   CREATE FUNCTION release_kept() RETURNS trigger LANGUAGE plpgsql AS
     $$ BEGIN RAISE EXCEPTION 'releases and their events are kept as stored'; END $$;
   CREATE TRIGGER release_blobs_no_update BEFORE UPDATE ON release_blobs
     FOR EACH ROW EXECUTE FUNCTION release_kept();
   CREATE TRIGGER releases_no_change BEFORE UPDATE OR DELETE ON releases
     FOR EACH ROW EXECUTE FUNCTION release_kept();
   CREATE TRIGGER release_files_no_change BEFORE UPDATE OR DELETE ON release_files
     FOR EACH ROW EXECUTE FUNCTION release_kept();
   CREATE TRIGGER release_documents_no_change BEFORE UPDATE OR DELETE ON release_documents
     FOR EACH ROW EXECUTE FUNCTION release_kept();
   CREATE TRIGGER release_events_no_change BEFORE UPDATE OR DELETE ON release_events
     FOR EACH ROW EXECUTE FUNCTION release_kept();
   CREATE TRIGGER release_history_no_truncate BEFORE TRUNCATE ON releases
     FOR EACH STATEMENT EXECUTE FUNCTION release_kept();
   CREATE TRIGGER release_events_no_truncate BEFORE TRUNCATE ON release_events
     FOR EACH STATEMENT EXECUTE FUNCTION release_kept();`,
  // The admissions desk: the SQLite file's step of the same name (sqlite/schema.ts), in PostgreSQL's words.
  `ALTER TABLE staff ADD COLUMN roles text NOT NULL DEFAULT '["admissions"]';
   UPDATE staff SET roles = '["admissions","admin"]' WHERE admin = 1;
   ALTER TABLE invites ADD COLUMN roles text NOT NULL DEFAULT '["admissions"]';
   UPDATE invites SET roles = '["admissions","admin"]' WHERE admin = 1;
   ALTER TABLE leads ADD COLUMN promised_at text, ADD COLUMN due_at text, ADD COLUMN owner text,
     ADD COLUMN first_contact_at text, ADD COLUMN attempts integer NOT NULL DEFAULT 0, ADD COLUMN escalated_at text;
   UPDATE leads SET promised_at = created_at,
     due_at = CASE WHEN status IN ('new', 'not-reached') THEN created_at END;
   CREATE INDEX leads_due ON leads (due_at, id) WHERE due_at IS NOT NULL;
   CREATE INDEX leads_by_owner ON leads (owner, due_at) WHERE owner IS NOT NULL;
   CREATE TABLE lead_calls (
     id text PRIMARY KEY,
     lead_id text NOT NULL REFERENCES leads(id) ON DELETE CASCADE,
     at text NOT NULL,
     author text NOT NULL,
     outcome text NOT NULL,
     callback_at text
   );
   CREATE INDEX lead_calls_of_lead ON lead_calls (lead_id, at);`,
  // The release's reviews: the SQLite file's step of the same name (sqlite/schema.ts).
  `ALTER TABLE releases ADD COLUMN reviews text NOT NULL DEFAULT '{}';`,
  // The desk's second part: the SQLite file's step of the same name (sqlite/schema.ts), in PostgreSQL's words.
  `ALTER TABLE leads ADD COLUMN merged_into text, ADD COLUMN owner_auto integer NOT NULL DEFAULT 0;
   CREATE INDEX leads_merged_into ON leads (merged_into) WHERE merged_into IS NOT NULL;
   ALTER TABLE staff ADD COLUMN on_shift integer NOT NULL DEFAULT 0 CHECK (on_shift IN (0, 1)),
     ADD COLUMN turn bigint NOT NULL DEFAULT 0;`,
  // Editorial roles: the SQLite file's step of the same name (sqlite/schema.ts), in PostgreSQL's words.
  `ALTER TABLE staff ADD COLUMN display_name text, ADD COLUMN credential text;
   ALTER TABLE invites ADD COLUMN display_name text, ADD COLUMN credential text;`,
  // Change sets: the SQLite file's step of the same name (sqlite/schema.ts), in PostgreSQL's words.
  CHANGE_SETS_POSTGRES,
  // Presence across instances: the SQLite file's step of the same name (sqlite/schema.ts).
  CHANGE_PRESENCE_POSTGRES,
];
export const PG_SCHEMA_VERSION = MIGRATIONS.length;

/** The advisory lock key every instance migrates under (any constant; this one spells "leads"). */
const MIGRATION_LOCK = 0x6c65616473;

/** bigint (int8) as a JavaScript number: every bigint here is epoch milliseconds, a counter or a sequence number. */
const INT8 = 20;
const types = {
  getTypeParser: ((oid: number, format?: 'text' | 'binary') =>
    oid === INT8 && format !== 'binary'
      ? (value: string) => Number(value)
      : pg.types.getTypeParser(oid, format)) as typeof pg.types.getTypeParser,
};

export interface PoolOptions {
  /** Connections per instance (DEPLOY: a database's max_connections shared by every instance). */
  max?: number;
  /** The longest a query may run before it is abandoned, client and server side. */
  queryTimeoutMs?: number;
}

export const DEFAULT_QUERY_TIMEOUT_MS = 8000;

export function createPool(
  url: string,
  { max = 10, queryTimeoutMs = DEFAULT_QUERY_TIMEOUT_MS }: PoolOptions = {},
) {
  const pool = new pg.Pool({
    connectionString: url,
    max,
    types,
    // A stalled database is a bounded wait, never a hang: for a connection, for a query, and for the server itself.
    connectionTimeoutMillis: queryTimeoutMs,
    query_timeout: queryTimeoutMs,
    statement_timeout: queryTimeoutMs,
    idle_in_transaction_session_timeout: queryTimeoutMs * 2,
  });
  // An idle connection that the database dropped (a restart) is only reported here; the next query takes a new one.
  pool.on('error', () => undefined);
  return pool;
}

/**
 * Brings the schema to this version, one step per transaction, holding the advisory lock so a second instance waits
 * and then finds nothing left to do. Refuses a database newer than this server.
 */
export async function migrate(pool: pg.Pool): Promise<void> {
  const client = await checkout(pool);
  try {
    // The lock waits as long as another instance migrates, not the usual query timeout.
    await client.query({ text: 'SET statement_timeout = 0' });
    await client.query('SELECT pg_advisory_lock($1)', [MIGRATION_LOCK]);
    try {
      // Created only where it is missing: CREATE ... IF NOT EXISTS needs the right to create even when the table
      // exists, which a role that only uses the tables (docs/DEPLOY.md) has not.
      const { rows: found } = await client.query<{ table: string | null }>(
        "SELECT to_regclass('schema_version')::text AS table",
      );
      if (found[0]?.table == null)
        await client.query(
          'CREATE TABLE schema_version (version integer PRIMARY KEY, applied_at timestamptz NOT NULL DEFAULT now())',
        );
      const { rows } = await client.query<{ version: number | null }>(
        'SELECT max(version) AS version FROM schema_version',
      );
      const version = rows[0]?.version ?? 0;
      if (version > MIGRATIONS.length)
        throw new Error(
          `Lead database schema version ${version} is newer than this server knows (${MIGRATIONS.length})`,
        );
      for (const [index, sql] of MIGRATIONS.entries()) {
        if (index < version) continue;
        await client.query('BEGIN');
        try {
          await client.query(sql);
          await client.query('INSERT INTO schema_version (version) VALUES ($1)', [index + 1]);
          await client.query('COMMIT');
        } catch (error) {
          await client.query('ROLLBACK');
          throw error;
        }
      }
    } finally {
      await client.query('SELECT pg_advisory_unlock($1)', [MIGRATION_LOCK]);
    }
  } finally {
    await client.query('RESET statement_timeout').catch(() => undefined);
    client.release();
  }
}

export type Queryable = Pick<pg.Pool | pg.PoolClient, 'query'>;

/**
 * A connection of the pool, for the caller to release. A database that goes away while it is held is told twice: to
 * the query in flight, which rejects (the caller answers for it), and as an 'error' event on the connection, which the
 * pool listens for only while the connection is idle: unheard, it would end the process. It is heard here until
 * release.
 */
export async function checkout(pool: pg.Pool): Promise<pg.PoolClient> {
  const client = await pool.connect();
  const heard = () => undefined;
  client.on('error', heard);
  const release = client.release.bind(client);
  client.release = (broken?: Error | boolean) => {
    client.removeListener('error', heard);
    release(broken);
  };
  return client;
}

/** Runs `work` in one transaction on one connection of the pool; rolled back if it throws. */
export async function transaction<T>(pool: pg.Pool, work: (client: pg.PoolClient) => Promise<T>): Promise<T> {
  const client = await checkout(pool);
  let result: T;
  try {
    await client.query('BEGIN');
    result = await work(client);
    await client.query('COMMIT');
  } catch (error) {
    // A connection that cannot even roll back (the database went away) is dropped, not handed to the next caller.
    const broken = await client.query('ROLLBACK').then(
      () => false,
      () => true,
    );
    client.release(broken);
    throw error;
  }
  client.release();
  return result;
}

export async function readMeta(db: Queryable, name: string): Promise<string | undefined> {
  const { rows } = await db.query<{ value: string }>('SELECT value FROM meta WHERE name = $1', [name]);
  return rows[0]?.value;
}

export async function writeMeta(db: Queryable, name: string, value: string): Promise<void> {
  await db.query(
    'INSERT INTO meta (name, value) VALUES ($1, $2) ON CONFLICT (name) DO UPDATE SET value = excluded.value',
    [name, value],
  );
}
