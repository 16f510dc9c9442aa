// The inbox's staff, passkeys, invitations, sessions and WebAuthn challenges in PostgreSQL: the SQLite staff store's
// statements (sqlite/staff-store.ts) in PostgreSQL's words, the same rows and the same hashing of secrets.
import type pg from 'pg';
import type { InviteRow, MemberRow, PasskeyRow, SessionRow } from '../contract/rows.ts';
import type { NewPasskey, StaffStore } from '../contract/staff-store.ts';
import {
  cookieSigner,
  inviteProblem,
  invitePath,
  normaliseEmail,
  PASSKEY_COLUMNS,
  profileColumns,
  roleColumns,
  passkeyValues,
  secret,
  sha256,
  toMember,
  toPasskey,
  toSessionInfo,
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
        `INSERT INTO passkeys (${PASSKEY_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7) ON CONFLICT (id) DO NOTHING`,
        passkeyValues(staffId, passkey, now),
      )
    ).rowCount === 1;
  /** Cancels the e-mail's invitations still waiting at `now`, for `reason`; how many. */
  const cancelOpen = async (db: Queryable, email: string, now: number, reason: 'cancelled' | 'revoked') =>
    (
      await db.query(
        `UPDATE invites SET cancelled_at = $1, cancel_reason = $2
         WHERE email = $3 AND used_at IS NULL AND cancelled_at IS NULL AND expires_at > $1`,
        [now, reason, email],
      )
    ).rowCount ?? 0;

  return {
    ...invitePath({
      insertInvite: (...values) =>
        pool.query(
          `INSERT INTO invites (token_hash, email, admin, roles, display_name, credential, created_at, expires_at)
           VALUES ($1, $2, $3, $4, $5, $6, $7, $8)`,
          values,
        ),
      inviteRow: (hash) => one<InviteRow>(pool, 'SELECT * FROM invites WHERE token_hash = $1', [hash]),
      openInvites: async (now) =>
        (
          await pool.query<InviteRow>(
            'SELECT * FROM invites WHERE used_at IS NULL AND cancelled_at IS NULL AND expires_at > $1',
            [now],
          )
        ).rows,
      memberByEmail: (email) => memberByEmail(pool, email),
    }),
    cancelInvites: (address, now) => cancelOpen(pool, normaliseEmail(address) ?? address, now, 'cancelled'),
    enrol: (token, newId, passkey, now) =>
      transaction(pool, async (db) => {
        const hash = sha256(token);
        // FOR UPDATE: two enrolments with one invitation (two instances) spend it once, and a revoke or a cancel
        // waits for (or wins over) it.
        const invite = await one<InviteRow>(db, 'SELECT * FROM invites WHERE token_hash = $1 FOR UPDATE', [
          hash,
        ]);
        const existing = invite && (await memberByEmail(db, invite.email));
        if (
          !invite ||
          inviteProblem(invite, existing, now) ||
          (await one(db, 'SELECT 1 FROM passkeys WHERE id = $1', [passkey.id]))
        )
          return undefined;
        await db.query('UPDATE invites SET used_at = $1 WHERE token_hash = $2', [now, hash]);
        const id = existing?.id ?? newId;
        if (!existing)
          await db.query(
            `INSERT INTO staff (id, email, admin, roles, display_name, credential, created_at)
             VALUES ($1, $2, $3, $4, $5, $6, $7)`,
            [id, invite.email, invite.admin, invite.roles, invite.display_name, invite.credential, now],
          );
        else {
          // Reinstated (the invitation was made after the revoke): it decides their role afresh. A name or credential
          // the invitation carries replaces the member's.
          if (existing.revoked_at !== null)
            await db.query('UPDATE staff SET revoked_at = NULL, admin = $1, roles = $2 WHERE id = $3', [
              invite.admin,
              invite.roles,
              id,
            ]);
          await db.query(
            `UPDATE staff SET display_name = coalesce($1, display_name), credential = coalesce($2, credential)
             WHERE id = $3`,
            [invite.display_name, invite.credential, id],
          );
        }
        await storePasskey(db, id, passkey, now);
        const row = await memberById(db, id);
        return row && toMember(row);
      }),
    async setRoles(address, roles) {
      const { admin, roles: list } = roleColumns(roles);
      const email = normaliseEmail(address) ?? address;
      await pool.query('UPDATE staff SET admin = $1, roles = $2 WHERE email = $3 AND revoked_at IS NULL', [
        admin,
        list,
        email,
      ]);
      const row = await memberByEmail(pool, email);
      return row && row.revoked_at === null ? toMember(row) : undefined;
    },
    async setProfile(address, profile) {
      const row = await memberByEmail(pool, normaliseEmail(address) ?? address);
      if (!row || row.revoked_at !== null) return undefined;
      const { name, credential } = profileColumns(row, profile);
      await pool.query('UPDATE staff SET display_name = $1, credential = $2 WHERE id = $3', [
        name,
        credential,
        row.id,
      ]);
      const updated = await memberById(pool, row.id);
      return updated && toMember(updated);
    },
    async members() {
      const { rows } = await pool.query<MemberRow & { passkeys: number; last_sign_in: number | null }>(
        `SELECT staff.*, count(passkeys.id)::int AS passkeys, max(passkeys.last_used_at) AS last_sign_in
         FROM staff LEFT JOIN passkeys ON passkeys.staff_id = staff.id GROUP BY staff.id ORDER BY staff.email`,
      );
      return rows.map((row) => ({
        ...toMember(row),
        passkeys: row.passkeys,
        lastSignInAt: row.last_sign_in,
        onShift: row.on_shift === 1,
      }));
    },
    async setOnShift(staffId, onShift) {
      const { rowCount } = await pool.query(
        'UPDATE staff SET on_shift = $1 WHERE id = $2 AND revoked_at IS NULL',
        [onShift ? 1 : 0, staffId],
      );
      return rowCount === 1;
    },
    async endShiftsWithoutSession({ idleMs, absoluteMs }, now, staffId) {
      const { rows } = await pool.query<{ email: string }>(
        `UPDATE staff SET on_shift = 0
         WHERE on_shift = 1 AND ($1::text IS NULL OR id = $1) AND NOT EXISTS (
           SELECT 1 FROM sessions
           WHERE sessions.staff_id = staff.id AND sessions.created_at > $2 AND sessions.last_seen_at > $3)
         RETURNING email`,
        [staffId ?? null, now - absoluteMs, now - idleMs],
      );
      return rows.map((row) => row.email);
    },
    revoke: (address, now) =>
      transaction(pool, async (db) => {
        const row = await memberByEmail(db, normaliseEmail(address) ?? address);
        if (!row) return undefined;
        await db.query('UPDATE staff SET revoked_at = coalesce(revoked_at, $1), on_shift = 0 WHERE id = $2', [
          now,
          row.id,
        ]);
        await db.query('DELETE FROM sessions WHERE staff_id = $1', [row.id]);
        await db.query('DELETE FROM passkeys WHERE staff_id = $1', [row.id]);
        const invitesCancelled = await cancelOpen(db, row.email, now, 'revoked');
        const revoked = await memberById(db, row.id);
        return revoked && { ...toMember(revoked), invitesCancelled };
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
    removePasskey: (staffId, id) =>
      transaction(pool, async (db) => {
        // The member's row locked: two removals at once (two instances) never leave them without a passkey.
        await db.query('SELECT 1 FROM staff WHERE id = $1 FOR UPDATE', [staffId]);
        const { rows } = await db.query<{ id: string }>('SELECT id FROM passkeys WHERE staff_id = $1', [
          staffId,
        ]);
        if (!rows.some((row) => row.id === id)) return 'missing';
        if (rows.length === 1) return 'last';
        await db.query('DELETE FROM passkeys WHERE id = $1 AND staff_id = $2', [id, staffId]);
        return 'removed';
      }),
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
    async startSession(staffId, now, device = null) {
      const id = secret();
      await pool.query(
        `INSERT INTO sessions (id_hash, staff_id, created_at, last_seen_at, verified_at, device)
         VALUES ($1, $2, $3, $3, $3, $4)`,
        [sha256(id), staffId, now, device],
      );
      return id;
    },
    async session(sessionId) {
      const row = await one<SessionRow>(pool, 'SELECT * FROM sessions WHERE id_hash = $1', [
        sha256(sessionId),
      ]);
      const member = row && (await memberById(pool, row.staff_id));
      return row && member && { ...toSessionInfo(row), member: toMember(member) };
    },
    async sessionsOf(staffId) {
      const { rows } = await pool.query<SessionRow>(
        'SELECT * FROM sessions WHERE staff_id = $1 ORDER BY created_at DESC, id_hash',
        [staffId],
      );
      return rows.map(toSessionInfo);
    },
    async touchSession(sessionId, now) {
      await pool.query('UPDATE sessions SET last_seen_at = $1 WHERE id_hash = $2', [now, sha256(sessionId)]);
    },
    async sessionVerified(sessionId, now) {
      await pool.query('UPDATE sessions SET verified_at = $1 WHERE id_hash = $2', [now, sha256(sessionId)]);
    },
    async endSession(sessionId) {
      return (
        (await pool.query('DELETE FROM sessions WHERE id_hash = $1', [sha256(sessionId)])).rowCount === 1
      );
    },
    async endSessionOf(staffId, id) {
      return (
        (await pool.query('DELETE FROM sessions WHERE id_hash = $1 AND staff_id = $2', [id, staffId]))
          .rowCount === 1
      );
    },
    sign: cookieSigner(leadKey),
  };
}
