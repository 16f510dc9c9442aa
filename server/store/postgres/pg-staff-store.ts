// The inbox's staff, passkeys, invitations, sessions and WebAuthn challenges in PostgreSQL: the SQLite staff store's
// statements (sqlite/staff-store.ts) in PostgreSQL's words, the same rows and the same hashing of secrets.
import type pg from 'pg';
import type { MemberRow, PasskeyRow } from '../contract/rows.ts';
import type { NewPasskey, StaffStore } from '../contract/staff-store.ts';
import {
  cookieSigner,
  invitePath,
  normaliseEmail,
  passkeyValues,
  secret,
  sha256,
  toMember,
  toPasskey,
} from '../shared/staff-records.ts';
import { transaction, type Queryable } from './pg-schema.ts';

export function postgresStaffStore(pool: pg.Pool, leadKey: Buffer): StaffStore {
  const one = async <T extends pg.QueryResultRow>(db: Queryable, sql: string, values: unknown[]) =>
    (await db.query<T>(sql, values)).rows[0];
  const memberById = (db: Queryable, id: string) =>
    one<MemberRow>(db, 'SELECT * FROM staff WHERE id = $1', [id]);
  const memberByEmail = (db: Queryable, email: string) =>
    one<MemberRow>(db, 'SELECT * FROM staff WHERE email = $1', [email]);
  const storePasskey = async (db: Queryable, staffId: string, passkey: NewPasskey, now: number) =>
    (
      await db.query(
        `INSERT INTO passkeys (id, staff_id, public_key, counter, transports, created_at)
         VALUES ($1, $2, $3, $4, $5, $6) ON CONFLICT (id) DO NOTHING`,
        passkeyValues(staffId, passkey, now),
      )
    ).rowCount === 1;

  return {
    ...invitePath({
      insertInvite: (...values) =>
        pool.query(
          'INSERT INTO invites (token_hash, email, admin, expires_at) VALUES ($1, $2, $3, $4)',
          values,
        ),
      validInvite: (hash, now) =>
        one<{ email: string; admin: number }>(
          pool,
          'SELECT email, admin FROM invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2',
          [hash, now],
        ),
      memberByEmail: (email) => memberByEmail(pool, email),
    }),
    enrol: (token, newId, passkey, now) =>
      transaction(pool, async (db) => {
        const hash = sha256(token);
        // FOR UPDATE: two enrolments with one invitation (two instances) spend it once.
        const invite = await one<{ email: string; admin: number }>(
          db,
          'SELECT email, admin FROM invites WHERE token_hash = $1 AND used_at IS NULL AND expires_at > $2 FOR UPDATE',
          [hash, now],
        );
        if (!invite || (await one(db, 'SELECT 1 FROM passkeys WHERE id = $1', [passkey.id])))
          return undefined;
        await db.query('UPDATE invites SET used_at = $1 WHERE token_hash = $2', [now, hash]);
        const existing = await memberByEmail(db, invite.email);
        const id = existing?.id ?? newId;
        if (!existing)
          await db.query('INSERT INTO staff (id, email, admin, created_at) VALUES ($1, $2, $3, $4)', [
            id,
            invite.email,
            invite.admin,
            now,
          ]);
        else if (existing.revoked_at !== null)
          // Readmitted: the invitation decides their role afresh.
          await db.query('UPDATE staff SET revoked_at = NULL, admin = $1 WHERE id = $2', [invite.admin, id]);
        await storePasskey(db, id, passkey, now);
        const row = await memberById(db, id);
        return row && toMember(row);
      }),
    async members() {
      const { rows } = await pool.query<MemberRow & { passkeys: number; last_sign_in: number | null }>(
        `SELECT staff.*, count(passkeys.id)::int AS passkeys, max(passkeys.last_used_at) AS last_sign_in
         FROM staff LEFT JOIN passkeys ON passkeys.staff_id = staff.id GROUP BY staff.id ORDER BY staff.email`,
      );
      return rows.map((row) => ({
        ...toMember(row),
        passkeys: row.passkeys,
        lastSignInAt: row.last_sign_in,
      }));
    },
    revoke: (address, now) =>
      transaction(pool, async (db) => {
        const row = await memberByEmail(db, normaliseEmail(address) ?? address);
        if (!row) return undefined;
        await db.query('UPDATE staff SET revoked_at = coalesce(revoked_at, $1) WHERE id = $2', [now, row.id]);
        await db.query('DELETE FROM sessions WHERE staff_id = $1', [row.id]);
        await db.query('DELETE FROM passkeys WHERE staff_id = $1', [row.id]);
        const revoked = await memberById(db, row.id);
        return revoked && toMember(revoked);
      }),
    async passkey(id) {
      const row = await one<PasskeyRow>(pool, 'SELECT * FROM passkeys WHERE id = $1', [id]);
      const member = row && (await memberById(pool, row.staff_id));
      return row && member ? { ...toPasskey(row), member: toMember(member) } : undefined;
    },
    async passkeysOf(staffId) {
      const { rows } = await pool.query<PasskeyRow>(
        'SELECT * FROM passkeys WHERE staff_id = $1 ORDER BY created_at, id',
        [staffId],
      );
      return rows.map(toPasskey);
    },
    addPasskey: (staffId, passkey, now) => storePasskey(pool, staffId, passkey, now),
    async passkeyUsed(id, counter, now) {
      await pool.query('UPDATE passkeys SET counter = $1, last_used_at = $2 WHERE id = $3', [
        counter,
        now,
        id,
      ]);
    },
    async saveChallenge(challenge, purpose, staffId, expiresAt, now, max, network = { key: '', quota: max }) {
      return transaction(pool, async (db) => {
        // One count at a time across instances, so the bound holds however many sign-ins start together.
        await db.query("SELECT pg_advisory_xact_lock(hashtext('webauthn_challenges'))");
        await db.query('DELETE FROM webauthn_challenges WHERE expires_at <= $1', [now]);
        const count = async (sql: string, values: string[] = []) =>
          Number((await db.query<{ n: string }>(sql, values)).rows[0]?.n ?? 0);
        const own = await count('SELECT COUNT(*) AS n FROM webauthn_challenges WHERE network = $1', [
          network.key,
        ]);
        if (own >= network.quota) return false;
        if ((await count('SELECT COUNT(*) AS n FROM webauthn_challenges')) >= max) {
          const top = await one<{ network: string; n: string }>(
            db,
            'SELECT network, COUNT(*) AS n FROM webauthn_challenges GROUP BY network ORDER BY n DESC LIMIT 1',
            [],
          );
          if (!top || own + 1 >= Number(top.n)) return false;
          await db.query(
            `DELETE FROM webauthn_challenges
             WHERE id = (SELECT id FROM webauthn_challenges WHERE network = $1 ORDER BY id LIMIT 1)`,
            [top.network],
          );
        }
        await db.query(
          `INSERT INTO webauthn_challenges (challenge, purpose, staff_id, expires_at, network)
           VALUES ($1, $2, $3, $4, $5)`,
          [challenge, purpose, staffId, expiresAt, network.key],
        );
        return true;
      });
    },
    async takeChallenge(challenge, purpose, now) {
      const row = await one<{ staff_id: string | null }>(
        pool,
        `DELETE FROM webauthn_challenges WHERE challenge = $1 AND purpose = $2 AND expires_at > $3
         RETURNING staff_id`,
        [challenge, purpose, now],
      );
      return row && { staffId: row.staff_id };
    },
    async startSession(staffId, now) {
      const id = secret();
      await pool.query(
        'INSERT INTO sessions (id_hash, staff_id, created_at, last_seen_at) VALUES ($1, $2, $3, $3)',
        [sha256(id), staffId, now],
      );
      return id;
    },
    async session(sessionId) {
      const row = await one<MemberRow & { session_created_at: number; last_seen_at: number }>(
        pool,
        `SELECT staff.*, sessions.created_at AS session_created_at, sessions.last_seen_at
         FROM sessions JOIN staff ON staff.id = sessions.staff_id WHERE sessions.id_hash = $1`,
        [sha256(sessionId)],
      );
      return (
        row && { member: toMember(row), createdAt: row.session_created_at, lastSeenAt: row.last_seen_at }
      );
    },
    async touchSession(sessionId, now) {
      await pool.query('UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2', [now, sha256(sessionId)]);
    },
    async endSession(sessionId) {
      await pool.query('DELETE FROM sessions WHERE id_hash = $1', [sha256(sessionId)]);
    },
    sign: cookieSigner(leadKey),
  };
}
