// Who may use the admissions inbox: staff members, their passkeys, one-time invitations, sessions and the WebAuthn
// challenges in flight. One contract for both stores (sqlite/staff-store.ts, postgres/pg-staff-store.ts); secrets
// handed out (invitation tokens, session ids) are kept only as SHA-256 hashes, so a copy of the database opens no door.

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

/** Who started a ceremony, as saveChallenge counts: an IPv4 /24 or IPv6 /64, and what it may hold of the table. */
export interface ChallengeNetwork {
  key: string;
  quota: number;
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
   * Keeps a challenge until `expiresAt`; drops the expired ones. The table stays small however many addresses start
   * ceremonies, and no one network can use it up: false, and nothing kept, when `network` holds its `quota` of unexpired
   * challenges already. When `max` are kept, the oldest challenge of the network holding most gives way to this one, so
   * long as that network would still hold more than this one's; otherwise false.
   */
  saveChallenge(
    challenge: string,
    purpose: ChallengePurpose,
    staffId: string | null,
    expiresAt: number,
    now: number,
    max: number,
    network?: ChallengeNetwork,
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
