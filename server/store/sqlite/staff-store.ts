// The inbox's staff store on SQLite (the contract: contract/staff-store.ts): it runs on the lead store's main-thread
// connection, each write in an IMMEDIATE transaction (they are rare and small).
import type Database from 'better-sqlite3';
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

/** The staff store on the lead database `db`, whose sealed values `leadKey` opens. */
export function sqliteStaffStore(db: Database.Database, leadKey: Buffer): StaffStore {
  const memberById = db.prepare<[string], MemberRow>('SELECT * FROM staff WHERE id = ?');
  const memberByEmail = db.prepare<[string], MemberRow>('SELECT * FROM staff WHERE email = ?');
  const insertPasskey = db.prepare<ReturnType<typeof passkeyValues>>(
    `INSERT INTO passkeys (${PASSKEY_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  const passkeyExists = db.prepare<[string]>('SELECT 1 FROM passkeys WHERE id = ?');
  const inviteRow = db.prepare<[string], InviteRow>('SELECT * FROM invites WHERE token_hash = ?');
  const immediate = <T>(work: () => T): T => db.transaction(work).immediate();
  const storePasskey = (staffId: string, passkey: NewPasskey, now: number) =>
    insertPasskey.run(...passkeyValues(staffId, passkey, now)).changes === 1;
  const insertInvite = db.prepare(
    `INSERT INTO invites (token_hash, email, admin, roles, display_name, credential, created_at, expires_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
  );
  /** Cancels the e-mail's invitations still waiting at `now`, for `reason`; how many. */
  const cancelOpen = (email: string, now: number, reason: 'cancelled' | 'revoked') =>
    db
      .prepare(
        `UPDATE invites SET cancelled_at = ?, cancel_reason = ?
         WHERE email = ? AND used_at IS NULL AND cancelled_at IS NULL AND expires_at > ?`,
      )
      .run(now, reason, email, now).changes;

  return {
    ...invitePath({
      insertInvite: async (...values) => insertInvite.run(...values),
      inviteRow: async (hash) => inviteRow.get(hash),
      openInvites: async (now) =>
        db
          .prepare<[number], InviteRow>(
            'SELECT * FROM invites WHERE used_at IS NULL AND cancelled_at IS NULL AND expires_at > ?',
          )
          .all(now),
      memberByEmail: async (email) => memberByEmail.get(email),
    }),
    async cancelInvites(address, now) {
      return immediate(() => cancelOpen(normaliseEmail(address) ?? address, now, 'cancelled'));
    },
    async enrol(token, newId, passkey, now) {
      return immediate(() => {
        const hash = sha256(token);
        const invite = inviteRow.get(hash);
        const existing = invite && memberByEmail.get(invite.email);
        if (!invite || inviteProblem(invite, existing, now) || passkeyExists.get(passkey.id))
          return undefined;
        db.prepare('UPDATE invites SET used_at = ? WHERE token_hash = ?').run(now, hash);
        const id = existing?.id ?? newId;
        if (!existing)
          db.prepare(
            `INSERT INTO staff (id, email, admin, roles, display_name, credential, created_at)
             VALUES (?, ?, ?, ?, ?, ?, ?)`,
          ).run(id, invite.email, invite.admin, invite.roles, invite.display_name, invite.credential, now);
        else {
          // Reinstated (the invitation was made after the revoke): it decides their role afresh. A name or credential
          // the invitation carries replaces the member's.
          if (existing.revoked_at !== null)
            db.prepare('UPDATE staff SET revoked_at = NULL, admin = ?, roles = ? WHERE id = ?').run(
              invite.admin,
              invite.roles,
              id,
            );
          db.prepare(
            `UPDATE staff SET display_name = coalesce(?, display_name), credential = coalesce(?, credential)
             WHERE id = ?`,
          ).run(invite.display_name, invite.credential, id);
        }
        storePasskey(id, passkey, now);
        const row = memberById.get(id);
        return row && toMember(row);
      });
    },
    async setRoles(address, roles) {
      const { admin, roles: list } = roleColumns(roles);
      const email = normaliseEmail(address) ?? address;
      db.prepare('UPDATE staff SET admin = ?, roles = ? WHERE email = ? AND revoked_at IS NULL').run(
        admin,
        list,
        email,
      );
      const row = memberByEmail.get(email);
      return row && row.revoked_at === null ? toMember(row) : undefined;
    },
    async setProfile(address, profile) {
      const email = normaliseEmail(address) ?? address;
      const row = memberByEmail.get(email);
      if (!row || row.revoked_at !== null) return undefined;
      const { name, credential } = profileColumns(row, profile);
      db.prepare('UPDATE staff SET display_name = ?, credential = ? WHERE id = ?').run(
        name,
        credential,
        row.id,
      );
      const updated = memberById.get(row.id);
      return updated && toMember(updated);
    },
    async members() {
      return db
        .prepare<[], MemberRow & { passkeys: number; last_sign_in: number | null }>(
          `SELECT staff.*, COUNT(passkeys.id) AS passkeys, MAX(passkeys.last_used_at) AS last_sign_in
           FROM staff LEFT JOIN passkeys ON passkeys.staff_id = staff.id GROUP BY staff.id ORDER BY staff.email`,
        )
        .all()
        .map((row) => ({
          ...toMember(row),
          passkeys: row.passkeys,
          lastSignInAt: row.last_sign_in,
          onShift: row.on_shift === 1,
        }));
    },
    async setOnShift(staffId, onShift) {
      return (
        db
          .prepare('UPDATE staff SET on_shift = ? WHERE id = ? AND revoked_at IS NULL')
          .run(onShift ? 1 : 0, staffId).changes === 1
      );
    },
    async endShiftsWithoutSession({ idleMs, absoluteMs }, now, staffId) {
      return db
        .prepare<[string | null, string | null, number, number], { email: string }>(
          `UPDATE staff SET on_shift = 0
           WHERE on_shift = 1 AND (? IS NULL OR id = ?) AND NOT EXISTS (
             SELECT 1 FROM sessions
             WHERE sessions.staff_id = staff.id AND sessions.created_at > ? AND sessions.last_seen_at > ?)
           RETURNING email`,
        )
        .all(staffId ?? null, staffId ?? null, now - absoluteMs, now - idleMs)
        .map((row) => row.email);
    },
    async revoke(address, now) {
      return immediate(() => {
        const row = memberByEmail.get(normaliseEmail(address) ?? address);
        if (!row) return undefined;
        db.prepare('UPDATE staff SET revoked_at = coalesce(revoked_at, ?), on_shift = 0 WHERE id = ?').run(
          now,
          row.id,
        );
        db.prepare('DELETE FROM sessions WHERE staff_id = ?').run(row.id);
        db.prepare('DELETE FROM passkeys WHERE staff_id = ?').run(row.id);
        const invitesCancelled = cancelOpen(row.email, now, 'revoked');
        const revoked = memberById.get(row.id);
        return revoked && { ...toMember(revoked), invitesCancelled };
      });
    },
    async passkey(id) {
      const row = db.prepare<[string], PasskeyRow>('SELECT * FROM passkeys WHERE id = ?').get(id);
      const member = row && memberById.get(row.staff_id);
      return row && member ? { ...toPasskey(row), member: toMember(member) } : undefined;
    },
    async passkeysOf(staffId) {
      return db
        .prepare<[string], PasskeyRow>('SELECT * FROM passkeys WHERE staff_id = ? ORDER BY created_at, id')
        .all(staffId)
        .map(toPasskey);
    },
    async addPasskey(staffId, passkey, now) {
      return immediate(() => storePasskey(staffId, passkey, now));
    },
    async removePasskey(staffId, id) {
      return immediate(() => {
        const ids = db
          .prepare<[string], { id: string }>('SELECT id FROM passkeys WHERE staff_id = ?')
          .all(staffId)
          .map((row) => row.id);
        if (!ids.includes(id)) return 'missing';
        if (ids.length === 1) return 'last';
        db.prepare('DELETE FROM passkeys WHERE id = ? AND staff_id = ?').run(id, staffId);
        return 'removed';
      });
    },
    async passkeyUsed(id, counter, now) {
      immediate(() =>
        db.prepare('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?').run(counter, now, id),
      );
    },
    async saveChallenge(challenge, purpose, staffId, expiresAt, now, max, network = { key: '', quota: max }) {
      return immediate(() => {
        db.prepare('DELETE FROM webauthn_challenges WHERE expires_at <= ?').run(now);
        const count = (sql: string, ...values: string[]) =>
          db.prepare<string[], { n: number }>(sql).get(...values)?.n ?? 0;
        const own = count('SELECT COUNT(*) AS n FROM webauthn_challenges WHERE network = ?', network.key);
        if (own >= network.quota) return false;
        if (count('SELECT COUNT(*) AS n FROM webauthn_challenges') >= max) {
          const top = db
            .prepare<[], { network: string; n: number }>(
              `SELECT network, COUNT(*) AS n FROM webauthn_challenges GROUP BY network ORDER BY n DESC LIMIT 1`,
            )
            .get();
          if (!top || own + 1 >= top.n) return false;
          db.prepare(
            `DELETE FROM webauthn_challenges
             WHERE id = (SELECT id FROM webauthn_challenges WHERE network = ? ORDER BY id LIMIT 1)`,
          ).run(top.network);
        }
        db.prepare(
          'INSERT INTO webauthn_challenges (challenge, purpose, staff_id, expires_at, network) VALUES (?, ?, ?, ?, ?)',
        ).run(challenge, purpose, staffId, expiresAt, network.key);
        return true;
      });
    },
    async takeChallenge(challenge, purpose, now) {
      return immediate(() => {
        const row = db
          .prepare<[string, string, number], { staff_id: string | null }>(
            `DELETE FROM webauthn_challenges WHERE challenge = ? AND purpose = ? AND expires_at > ?
             RETURNING staff_id`,
          )
          .get(challenge, purpose, now);
        return row && { staffId: row.staff_id };
      });
    },
    async startSession(staffId, now, device = null) {
      const id = secret();
      immediate(() =>
        db
          .prepare(
            `INSERT INTO sessions (id_hash, staff_id, created_at, last_seen_at, verified_at, device)
             VALUES (?, ?, ?, ?, ?, ?)`,
          )
          .run(sha256(id), staffId, now, now, now, device),
      );
      return id;
    },
    async session(sessionId) {
      const row = db
        .prepare<[string], SessionRow>('SELECT * FROM sessions WHERE id_hash = ?')
        .get(sha256(sessionId));
      const member = row && memberById.get(row.staff_id);
      return row && member && { ...toSessionInfo(row), member: toMember(member) };
    },
    async sessionsOf(staffId) {
      return db
        .prepare<[string], SessionRow>(
          'SELECT * FROM sessions WHERE staff_id = ? ORDER BY created_at DESC, id_hash',
        )
        .all(staffId)
        .map(toSessionInfo);
    },
    async touchSession(sessionId, now) {
      immediate(() =>
        db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?').run(now, sha256(sessionId)),
      );
    },
    async sessionVerified(sessionId, now) {
      immediate(() =>
        db.prepare('UPDATE sessions SET verified_at = ? WHERE id_hash = ?').run(now, sha256(sessionId)),
      );
    },
    async endSession(sessionId) {
      return immediate(
        () => db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(sha256(sessionId)).changes === 1,
      );
    },
    async endSessionOf(staffId, id) {
      return immediate(
        () =>
          db.prepare('DELETE FROM sessions WHERE id_hash = ? AND staff_id = ?').run(id, staffId).changes ===
          1,
      );
    },
    sign: cookieSigner(leadKey),
  };
}
