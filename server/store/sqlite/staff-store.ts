// Who may use the admissions inbox: staff members, their passkeys, one-time invitations, sessions and the WebAuthn
// challenges in flight. Secrets handed out (invitation tokens, session ids) are kept only as SHA-256 hashes, so a
// copy of the database opens no door. One interface for every store; the SQLite one runs on the lead store's
// main-thread connection, each write in an IMMEDIATE transaction (they are rare and small).
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type Database from 'better-sqlite3';

/** Times are epoch milliseconds: the caller's clock decides, so tests can move it. */
export interface StaffMember {
  id: string;
  /** Lower-cased. */
  email: string;
  admin: boolean;
  createdAt: number;
  revokedAt: number | null;
}

export interface NewPasskey {
  /** The credential id, base64url as the browser sends it. */
  id: string;
  /** COSE public key. */
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
}

export interface StoredPasskey extends NewPasskey {
  staffId: string;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface StaffListing extends StaffMember {
  passkeys: number;
  /** The last time one of their passkeys signed them in. */
  lastSignInAt: number | null;
}

/** What a WebAuthn challenge was issued for: a challenge of one kind never completes another. */
export type ChallengePurpose = 'enrol' | 'sign-in' | 'passkey';

export interface StaffSession {
  member: StaffMember;
  createdAt: number;
  lastSeenAt: number;
}

export interface StaffStore {
  /**
   * A new invitation for `email` (normalised: RangeError when it is not an address); the token is returned once and
   * stored only as its hash.
   */
  createInvite(
    email: string,
    admin: boolean,
    expiresAt: number,
  ): Promise<{ token: string; member: StaffMember | undefined }>;
  /** The unused, unexpired invitation of `token`, and the member it is for when they exist already. */
  inviteFor(
    token: string,
    now: number,
  ): Promise<{ email: string; admin: boolean; member: StaffMember | undefined } | undefined>;
  /**
   * Spends the invitation and registers the passkey, at once: for an active member, as their extra passkey; else as a
   * new member (id `newId`), or a revoked one readmitted. Undefined when the invitation is no longer valid.
   */
  enrol(token: string, newId: string, passkey: NewPasskey, now: number): Promise<StaffMember | undefined>;
  members(): Promise<StaffListing[]>;
  /** Marks the member revoked and deletes their sessions and passkeys; undefined when there is no such member. */
  revoke(email: string, now: number): Promise<StaffMember | undefined>;
  passkey(id: string): Promise<(StoredPasskey & { member: StaffMember }) | undefined>;
  passkeysOf(staffId: string): Promise<StoredPasskey[]>;
  /** False when the credential is registered already. */
  addPasskey(staffId: string, passkey: NewPasskey, now: number): Promise<boolean>;
  passkeyUsed(id: string, counter: number, now: number): Promise<void>;
  /**
   * Keeps a challenge until `expiresAt`; drops the expired ones. False, and nothing kept, when `max` unexpired ones are
   * kept already: the table stays small however many addresses start ceremonies.
   */
  saveChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    staffId: string | null,
    expiresAt: number,
    now: number,
    max: number,
  ): Promise<boolean>;
  /** Removes and returns an unexpired challenge of that purpose: each is good for one ceremony. */
  takeChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    now: number,
  ): Promise<{ staffId: string | null } | undefined>;
  /** A new session; its id is returned once and stored only as its hash. */
  startSession(staffId: string, now: number): Promise<string>;
  session(sessionId: string): Promise<StaffSession | undefined>;
  touchSession(sessionId: string, now: number): Promise<void>;
  endSession(sessionId: string): Promise<void>;
  /**
   * An HMAC-SHA-256 (base64url) of `value` under a key derived (HKDF) from the lead encryption key: signs the session
   * cookie without a secret of its own to store.
   */
  sign(value: string): string;
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The e-mail as stored (trimmed, lower-cased); undefined when it does not look like an address. */
export function normaliseEmail(text: string): string | undefined {
  const email = text.trim().toLowerCase();
  return EMAIL.test(email) ? email : undefined;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const secret = (): string => randomBytes(32).toString('base64url');

export interface MemberRow {
  id: string;
  email: string;
  admin: number;
  created_at: number;
  revoked_at: number | null;
}

export interface PasskeyRow {
  id: string;
  staff_id: string;
  public_key: Buffer;
  counter: number;
  transports: string;
  created_at: number;
  last_used_at: number | null;
}

export const toMember = (row: MemberRow): StaffMember => ({
  id: row.id,
  email: row.email,
  admin: row.admin === 1,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export const toPasskey = (row: PasskeyRow): StoredPasskey => ({
  id: row.id,
  staffId: row.staff_id,
  publicKey: new Uint8Array(row.public_key),
  counter: row.counter,
  transports: JSON.parse(row.transports) as string[],
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** A passkey's values in the column order of `passkeys`: id, staff_id, public_key, counter, transports, created_at. */
export const passkeyValues = (
  staffId: string,
  passkey: NewPasskey,
  now: number,
): [string, string, Buffer, number, string, number] => [
  passkey.id,
  staffId,
  Buffer.from(passkey.publicKey),
  passkey.counter,
  JSON.stringify(passkey.transports),
  now,
];

/** The statements the invitation path needs, in one store's words. */
export interface InviteStatements {
  insertInvite(tokenHash: string, email: string, admin: 0 | 1, expiresAt: number): Promise<unknown>;
  /** The invitation of this token hash, unused and unexpired at `now`. */
  validInvite(tokenHash: string, now: number): Promise<{ email: string; admin: number } | undefined>;
  memberByEmail(email: string): Promise<MemberRow | undefined>;
}

/** createInvite and inviteFor of every staff store, over its statements: the token kept only as its hash. */
export function invitePath(db: InviteStatements): Pick<StaffStore, 'createInvite' | 'inviteFor'> {
  const active = (row: MemberRow | undefined) => (row && row.revoked_at === null ? toMember(row) : undefined);
  return {
    async createInvite(address, admin, expiresAt) {
      const email = normaliseEmail(address);
      if (!email) throw new RangeError(`not an e-mail address: ${address}`);
      const token = secret();
      await db.insertInvite(sha256(token), email, admin ? 1 : 0, expiresAt);
      return { token, member: active(await db.memberByEmail(email)) };
    },
    async inviteFor(token, now) {
      const invite = await db.validInvite(sha256(token), now);
      if (!invite) return undefined;
      return {
        email: invite.email,
        admin: invite.admin === 1,
        member: active(await db.memberByEmail(invite.email)),
      };
    },
  };
}

/** StaffStore.sign for a lead database whose sealed values `leadKey` opens (every store's). */
export function cookieSigner(leadKey: Buffer): StaffStore['sign'] {
  const cookieKey = Buffer.from(hkdfSync('sha256', leadKey, Buffer.alloc(0), 'staff-session-cookie', 32));
  return (value) => createHmac('sha256', cookieKey).update(value).digest('base64url');
}

/** The staff store on the lead database `db`, whose sealed values `leadKey` opens. */
export function sqliteStaffStore(db: Database.Database, leadKey: Buffer): StaffStore {
  const memberById = db.prepare<[string], MemberRow>('SELECT * FROM staff WHERE id = ?');
  const memberByEmail = db.prepare<[string], MemberRow>('SELECT * FROM staff WHERE email = ?');
  const insertPasskey = db.prepare<ReturnType<typeof passkeyValues>>(
    `INSERT INTO passkeys (id, staff_id, public_key, counter, transports, created_at)
     VALUES (?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING`,
  );
  const passkeyExists = db.prepare<[string]>('SELECT 1 FROM passkeys WHERE id = ?');
  const validInvite = db.prepare<[string, number], { email: string; admin: number }>(
    'SELECT email, admin FROM invites WHERE token_hash = ? AND used_at IS NULL AND expires_at > ?',
  );
  const immediate = <T>(work: () => T): T => db.transaction(work).immediate();
  const storePasskey = (staffId: string, passkey: NewPasskey, now: number) =>
    insertPasskey.run(...passkeyValues(staffId, passkey, now)).changes === 1;
  const insertInvite = db.prepare(
    'INSERT INTO invites (token_hash, email, admin, expires_at) VALUES (?, ?, ?, ?)',
  );

  return {
    ...invitePath({
      insertInvite: async (...values) => insertInvite.run(...values),
      validInvite: async (hash, now) => validInvite.get(hash, now),
      memberByEmail: async (email) => memberByEmail.get(email),
    }),
    async enrol(token, newId, passkey, now) {
      return immediate(() => {
        const hash = sha256(token);
        const invite = validInvite.get(hash, now);
        if (!invite || passkeyExists.get(passkey.id)) return undefined;
        db.prepare('UPDATE invites SET used_at = ? WHERE token_hash = ?').run(now, hash);
        const existing = memberByEmail.get(invite.email);
        const id = existing?.id ?? newId;
        if (!existing)
          db.prepare('INSERT INTO staff (id, email, admin, created_at) VALUES (?, ?, ?, ?)').run(
            id,
            invite.email,
            invite.admin,
            now,
          );
        else if (existing.revoked_at !== null) {
          // Readmitted: the invitation decides their role afresh.
          db.prepare('UPDATE staff SET revoked_at = NULL, admin = ? WHERE id = ?').run(invite.admin, id);
        }
        storePasskey(id, passkey, now);
        const row = memberById.get(id);
        return row && toMember(row);
      });
    },
    async members() {
      return db
        .prepare<[], MemberRow & { passkeys: number; last_sign_in: number | null }>(
          `SELECT staff.*, COUNT(passkeys.id) AS passkeys, MAX(passkeys.last_used_at) AS last_sign_in
           FROM staff LEFT JOIN passkeys ON passkeys.staff_id = staff.id GROUP BY staff.id ORDER BY staff.email`,
        )
        .all()
        .map((row) => ({ ...toMember(row), passkeys: row.passkeys, lastSignInAt: row.last_sign_in }));
    },
    async revoke(address, now) {
      return immediate(() => {
        const row = memberByEmail.get(normaliseEmail(address) ?? address);
        if (!row) return undefined;
        db.prepare('UPDATE staff SET revoked_at = coalesce(revoked_at, ?) WHERE id = ?').run(now, row.id);
        db.prepare('DELETE FROM sessions WHERE staff_id = ?').run(row.id);
        db.prepare('DELETE FROM passkeys WHERE staff_id = ?').run(row.id);
        const revoked = memberById.get(row.id);
        return revoked && toMember(revoked);
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
    async passkeyUsed(id, counter, now) {
      immediate(() =>
        db.prepare('UPDATE passkeys SET counter = ?, last_used_at = ? WHERE id = ?').run(counter, now, id),
      );
    },
    async saveChallenge(challenge, purpose, staffId, expiresAt, now, max) {
      return immediate(() => {
        db.prepare('DELETE FROM webauthn_challenges WHERE expires_at <= ?').run(now);
        const { kept } = db
          .prepare<[], { kept: number }>('SELECT COUNT(*) AS kept FROM webauthn_challenges')
          .get() ?? { kept: 0 };
        if (kept >= max) return false;
        db.prepare(
          'INSERT INTO webauthn_challenges (challenge, purpose, staff_id, expires_at) VALUES (?, ?, ?, ?)',
        ).run(challenge, purpose, staffId, expiresAt);
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
    async startSession(staffId, now) {
      const id = secret();
      immediate(() =>
        db
          .prepare('INSERT INTO sessions (id_hash, staff_id, created_at, last_seen_at) VALUES (?, ?, ?, ?)')
          .run(sha256(id), staffId, now, now),
      );
      return id;
    },
    async session(sessionId) {
      const row = db
        .prepare<[string], MemberRow & { session_created_at: number; last_seen_at: number }>(
          `SELECT staff.*, sessions.created_at AS session_created_at, sessions.last_seen_at
           FROM sessions JOIN staff ON staff.id = sessions.staff_id WHERE sessions.id_hash = ?`,
        )
        .get(sha256(sessionId));
      return (
        row && { member: toMember(row), createdAt: row.session_created_at, lastSeenAt: row.last_seen_at }
      );
    },
    async touchSession(sessionId, now) {
      immediate(() =>
        db.prepare('UPDATE sessions SET last_seen_at = ? WHERE id_hash = ?').run(now, sha256(sessionId)),
      );
    },
    async endSession(sessionId) {
      immediate(() => db.prepare('DELETE FROM sessions WHERE id_hash = ?').run(sha256(sessionId)));
    },
    sign: cookieSigner(leadKey),
  };
}
