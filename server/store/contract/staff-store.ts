// Who may use the admissions inbox: staff members, their passkeys, one-time invitations, sessions and the WebAuthn
// challenges in flight. One contract for both stores (sqlite/staff-store.ts, postgres/pg-staff-store.ts); secrets
// handed out (invitation tokens, session ids) are kept only as SHA-256 hashes, so a copy of the database opens no door.
import type { StaffRole } from '../../../contracts/staff-api.ts';

export type { StaffRole } from '../../../contracts/staff-api.ts';

/** Times are epoch milliseconds: the caller's clock decides, so tests can move it. */
export interface StaffMember {
  id: string;
  /** Lower-cased. */
  email: string;
  /** `roles` holds 'admin'. */
  admin: boolean;
  roles: StaffRole[];
  /** The display name (for "Medically reviewed by"); null when not given. */
  name: string | null;
  /** The clinical credential ("MD, Addiction Medicine"): a reviewer needs one to approve a clinical change. */
  credential: string | null;
  createdAt: number;
  revokedAt: number | null;
}

/** A member's name and credential as set: a field left out stays as it is, null clears it. */
export interface MemberProfile {
  name?: string | null;
  credential?: string | null;
}

export interface NewPasskey {
  /** The credential id, base64url as the browser sends it. */
  id: string;
  /** COSE public key. */
  publicKey: Uint8Array;
  counter: number;
  transports: string[];
  /** What it was added from, in words ("Chrome on Android"); null when not known. */
  name?: string | null;
}

export interface StoredPasskey extends NewPasskey {
  staffId: string;
  name: string | null;
  createdAt: number;
  lastUsedAt: number | null;
}

export interface StaffListing extends StaffMember {
  passkeys: number;
  /** The last time one of their passkeys signed them in. */
  lastSignInAt: number | null;
  /** Marked on shift: takes round-robin leads (ROUND_ROBIN). */
  onShift: boolean;
}

/** What a WebAuthn challenge was issued for: a challenge of one kind never completes another. */
export type ChallengePurpose = 'enrol' | 'sign-in' | 'passkey' | 'reauth';

/** An invitation for a current member adds a passkey to their account: it is good for this long after it was made. */
export const PASSKEY_INVITE_VALID_MS = 60 * 60 * 1000;

import type { InviteKind } from '../../../contracts/staff-admin.ts';

export type { InviteKind } from '../../../contracts/staff-admin.ts';

/** Why an invitation's token opens nothing: spent, expired or unknown; cancelled by an admin; or its member revoked. */
export type InviteRefusal = 'invalid' | 'cancelled' | 'revoked';

/** An invitation still waiting to be used (never its token, which is kept only as a hash). */
export interface PendingInvite {
  email: string;
  admin: boolean;
  roles: StaffRole[];
  kind: InviteKind;
  createdAt: number;
  /** When it stops working: for a current member, at most PASSKEY_INVITE_VALID_MS after it was made. */
  expiresAt: number;
}

export interface InviteOptions {
  /** When it is made; Date.now() when not given. */
  now?: number;
  /**
   * Lets a revoked member back in: without it, an invitation for a revoked member's e-mail is refused
   * (RevokedMemberError). Only an invitation made after the revoke can ever readmit them.
   */
  reinstate?: boolean;
  /** The name and credential the enrolment gives a new (or reinstated) member. */
  profile?: MemberProfile;
}

/** An invitation for a revoked member's e-mail, asked for without `reinstate`. */
export class RevokedMemberError extends Error {
  constructor(readonly member: StaffMember) {
    super(`${member.email} was revoked; only an explicit reinstatement invites them again`);
  }
}

/** A signed-in session as its member may see it: `id` is a public handle (never the secret of the cookie). */
export interface StaffSessionInfo {
  id: string;
  createdAt: number;
  /** The last request that counted as its member's activity (written at most every few seconds). */
  lastSeenAt: number;
  /** The last user-verified passkey assertion in this session (its sign-in counts); null when none. */
  verifiedAt: number | null;
  /** What it was signed in from, in words ("Safari on iPhone"); null when not known. */
  device: string | null;
}

export interface StaffSession extends StaffSessionInfo {
  member: StaffMember;
}

/** Who started a ceremony, as saveChallenge counts: an IPv4 /24 or IPv6 /64, and what it may hold of the table. */
export interface ChallengeNetwork {
  key: string;
  quota: number;
}

export interface StaffStore {
  /**
   * A new invitation for `email` (normalised: RangeError when it is not an address); the token is returned once and
   * stored only as its hash. `member` is the current member of that e-mail, if any. Throws RevokedMemberError for a
   * revoked member's e-mail unless `options.reinstate`.
   */
  createInvite(
    email: string,
    roles: readonly StaffRole[],
    expiresAt: number,
    options?: InviteOptions,
  ): Promise<{ token: string; member: StaffMember | undefined; kind: InviteKind }>;
  /** The usable invitation of `token` at `now`, whom it is for, and the current member of its e-mail if any. */
  inviteFor(
    token: string,
    now: number,
  ): Promise<
    | { email: string; admin: boolean; roles: StaffRole[]; kind: InviteKind; member: StaffMember | undefined }
    | undefined
  >;
  /** Why the invitation of `token` cannot be used at `now`; undefined when it can. */
  inviteRefusal(token: string, now: number): Promise<InviteRefusal | undefined>;
  /** Invitations still usable at `now`, oldest first. */
  invites(now: number): Promise<PendingInvite[]>;
  /** Cancels every invitation of `email` still waiting at `now`; how many. */
  cancelInvites(email: string, now: number): Promise<number>;
  /**
   * Spends the invitation and registers the passkey, at once: for an active member, as their extra passkey; else as a
   * new member (id `newId`), or a revoked one readmitted by an invitation made after the revoke. Undefined when the
   * invitation cannot be used (inviteRefusal says why).
   */
  enrol(token: string, newId: string, passkey: NewPasskey, now: number): Promise<StaffMember | undefined>;
  members(): Promise<StaffListing[]>;
  /** Marks the member on shift or off (round robin); false when there is no such current member. */
  setOnShift(staffId: string, onShift: boolean): Promise<boolean>;
  /**
   * Takes off shift every member on shift (only `staffId`, when given) who has no live session at `now`: none whose
   * last activity is less than `limits.idleMs` ago and whose sign-in less than `limits.absoluteMs` ago. A shift lasts
   * no longer than its member is signed in, so the rotation gives no lead to someone who has gone. The e-mails of
   * those it took off, each once (two callers at once: one of them).
   */
  endShiftsWithoutSession(
    limits: { idleMs: number; absoluteMs: number },
    now: number,
    staffId?: string,
  ): Promise<string[]>;
  /** Gives the current member of `email` exactly these roles; undefined when there is no such member (or revoked). */
  setRoles(email: string, roles: readonly StaffRole[]): Promise<StaffMember | undefined>;
  /** Sets the current member's name and credential (fields left out kept); undefined when there is no such member. */
  setProfile(email: string, profile: MemberProfile): Promise<StaffMember | undefined>;
  /**
   * Marks the member revoked, deletes their sessions and passkeys and cancels their invitations still waiting (how
   * many: `invitesCancelled`), at once; undefined when there is no such member.
   */
  revoke(email: string, now: number): Promise<(StaffMember & { invitesCancelled: number }) | undefined>;
  passkey(id: string): Promise<(StoredPasskey & { member: StaffMember }) | undefined>;
  passkeysOf(staffId: string): Promise<StoredPasskey[]>;
  /** False when the credential is registered already. */
  addPasskey(staffId: string, passkey: NewPasskey, now: number): Promise<boolean>;
  /** Deletes one of the member's passkeys, never their last one. */
  removePasskey(staffId: string, id: string): Promise<'removed' | 'last' | 'missing'>;
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
  /**
   * A new session, started by a user-verified passkey ceremony at `now` (its verifiedAt); its id is returned once and
   * stored only as its hash.
   */
  startSession(staffId: string, now: number, device?: string | null): Promise<string>;
  session(sessionId: string): Promise<StaffSession | undefined>;
  /** The member's sessions, newest first (over ones too: the caller judges). */
  sessionsOf(staffId: string): Promise<StaffSessionInfo[]>;
  touchSession(sessionId: string, now: number): Promise<void>;
  /** Records a user-verified passkey assertion made in this session at `now` (a re-authentication). */
  sessionVerified(sessionId: string, now: number): Promise<void>;
  /** Deletes the session; false when it was gone already. */
  endSession(sessionId: string): Promise<boolean>;
  /** Deletes the member's session of public handle `id`; false when they have none such. */
  endSessionOf(staffId: string, id: string): Promise<boolean>;
  /**
   * An HMAC-SHA-256 (base64url) of `value` under a key derived (HKDF) from the lead encryption key: signs the session
   * cookie without a secret of its own to store.
   */
  sign(value: string): string;
}
