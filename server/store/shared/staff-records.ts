// Staff as both stores keep them: the e-mail as stored, rows to members, passkeys and sessions and back, the hashes and
// signatures of secrets, and the invitation path (who an invitation still admits) over each store's own statements.
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import { DEFAULT_ROLES, isStaffRole, STAFF_ROLES } from '../../../contracts/staff-api.ts';
import type { InviteRow, MemberRow, PasskeyRow, SessionRow } from '../contract/rows.ts';
import {
  PASSKEY_INVITE_VALID_MS,
  RevokedMemberError,
  type InviteKind,
  type InviteRefusal,
  type MemberProfile,
  type NewPasskey,
  type PendingInvite,
  type StaffMember,
  type StaffRole,
  type StaffSessionInfo,
  type StaffStore,
  type StoredPasskey,
} from '../contract/staff-store.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The e-mail as stored (trimmed, lower-cased); undefined when it does not look like an address. */
export function normaliseEmail(text: string): string | undefined {
  const email = text.trim().toLowerCase();
  return EMAIL.test(email) ? email : undefined;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const secret = (): string => randomBytes(32).toString('base64url');

/**
 * Roles as stored: known names only, in STAFF_ROLES' order, without repeats; none given is the admissions role. A name
 * this version does not know (written by a newer one) is left out, so it grants nothing here.
 */
export function normaliseRoles(roles: readonly string[]): StaffRole[] {
  const known = STAFF_ROLES.filter((role) => roles.includes(role));
  return known.length > 0 ? known : [...DEFAULT_ROLES];
}

/** A roles column (JSON) read; anything unreadable is the default. */
export function readRoles(json: string | null | undefined): StaffRole[] {
  try {
    const value: unknown = JSON.parse(json ?? '[]');
    return normaliseRoles(Array.isArray(value) ? value.filter(isStaffRole) : []);
  } catch {
    return [...DEFAULT_ROLES];
  }
}

/** The columns a set of roles is stored in: the JSON list, and `admin` (kept for readers older than roles). */
export const roleColumns = (roles: readonly StaffRole[]): { roles: string; admin: 0 | 1 } => {
  const list = normaliseRoles(roles);
  return { roles: JSON.stringify(list), admin: list.includes('admin') ? 1 : 0 };
};

/** The longest name or credential kept: a line of a page, not a biography. */
export const MAX_PROFILE_TEXT = 200;

/** A name or credential as stored: trimmed, inner spaces collapsed, empty as null; RangeError when too long. */
export function profileText(text: string | null | undefined): string | null {
  const value = (text ?? '').replace(/\s+/g, ' ').trim();
  if (value.length > MAX_PROFILE_TEXT)
    throw new RangeError(`a name or credential is at most ${MAX_PROFILE_TEXT} characters`);
  return value === '' ? null : value;
}

/** The name and credential a member has after `profile` is applied to `row`: fields left out kept. */
export function profileColumns(
  row: MemberRow,
  profile: MemberProfile,
): { name: string | null; credential: string | null } {
  return {
    name: profile.name === undefined ? row.display_name : profileText(profile.name),
    credential: profile.credential === undefined ? row.credential : profileText(profile.credential),
  };
}

export const toMember = (row: MemberRow): StaffMember => ({
  id: row.id,
  email: row.email,
  admin: readRoles(row.roles).includes('admin'),
  roles: readRoles(row.roles),
  name: row.display_name ?? null,
  credential: row.credential ?? null,
  createdAt: row.created_at,
  revokedAt: row.revoked_at,
});

export const toPasskey = (row: PasskeyRow): StoredPasskey => ({
  id: row.id,
  staffId: row.staff_id,
  publicKey: new Uint8Array(row.public_key),
  counter: row.counter,
  transports: JSON.parse(row.transports) as string[],
  name: row.name,
  createdAt: row.created_at,
  lastUsedAt: row.last_used_at,
});

/** The columns of `passkeys` a new passkey fills, in the order of passkeyValues. */
export const PASSKEY_COLUMNS = 'id, staff_id, public_key, counter, transports, created_at, name';

/** A passkey's values in the order of PASSKEY_COLUMNS. */
export const passkeyValues = (
  staffId: string,
  passkey: NewPasskey,
  now: number,
): [string, string, Buffer, number, string, number, string | null] => [
  passkey.id,
  staffId,
  Buffer.from(passkey.publicKey),
  passkey.counter,
  JSON.stringify(passkey.transports),
  now,
  passkey.name ?? null,
];

/** The statements the invitation path needs, in one store's words. */
export interface InviteStatements {
  insertInvite(
    tokenHash: string,
    email: string,
    admin: 0 | 1,
    roles: string,
    displayName: string | null,
    credential: string | null,
    createdAt: number,
    expiresAt: number,
  ): Promise<unknown>;
  inviteRow(tokenHash: string): Promise<InviteRow | undefined>;
  /** Invitations neither used nor cancelled that expire after `now`. */
  openInvites(now: number): Promise<InviteRow[]>;
  memberByEmail(email: string): Promise<MemberRow | undefined>;
}

/**
 * Why an invitation cannot be used at `now` by its e-mail's `member` (if any); undefined when it can. Each store's
 * enrolment asks again inside its transaction. A revoked member's invitation works only when it was made after the
 * revoke (an explicit reinstatement: the revoke cancels the ones made before); a current member's (a passkey more)
 * only within PASSKEY_INVITE_VALID_MS of being made.
 */
export function inviteProblem(
  invite: InviteRow | undefined,
  member: MemberRow | undefined,
  now: number,
): InviteRefusal | undefined {
  if (!invite || invite.used_at !== null) return 'invalid';
  if (invite.cancelled_at !== null) return invite.cancel_reason ?? 'cancelled';
  if (member && member.revoked_at !== null && invite.created_at <= member.revoked_at) return 'revoked';
  return now < inviteExpiry(invite, member) ? undefined : 'invalid';
}

const inviteExpiry = (invite: InviteRow, member: MemberRow | undefined): number =>
  member && member.revoked_at === null
    ? Math.min(invite.expires_at, invite.created_at + PASSKEY_INVITE_VALID_MS)
    : invite.expires_at;

const inviteKind = (member: MemberRow | undefined): InviteKind =>
  !member ? 'new member' : member.revoked_at === null ? 'add a passkey' : 'reinstatement';

type InvitePath = Pick<StaffStore, 'createInvite' | 'inviteFor' | 'inviteRefusal' | 'invites'>;

/** The invitation path of every staff store, over its statements: the token kept only as its hash. */
export function invitePath(db: InviteStatements): InvitePath {
  const active = (row: MemberRow | undefined) => (row && row.revoked_at === null ? toMember(row) : undefined);
  const find = async (token: string) => {
    const invite = await db.inviteRow(sha256(token));
    return { invite, member: invite && (await db.memberByEmail(invite.email)) };
  };
  return {
    async createInvite(
      address,
      roles,
      expiresAt,
      { now = Date.now(), reinstate = false, profile = {} } = {},
    ) {
      const email = normaliseEmail(address);
      if (!email) throw new RangeError(`not an e-mail address: ${address}`);
      const existing = await db.memberByEmail(email);
      const revokedAt = existing?.revoked_at ?? null;
      if (existing && revokedAt !== null && !reinstate) throw new RevokedMemberError(toMember(existing));
      const token = secret();
      // Made after the revoke, whatever the clocks: only such an invitation readmits (inviteProblem).
      const createdAt = revokedAt === null ? now : Math.max(now, revokedAt + 1);
      const columns = roleColumns(roles);
      await db.insertInvite(
        sha256(token),
        email,
        columns.admin,
        columns.roles,
        profileText(profile.name),
        profileText(profile.credential),
        createdAt,
        expiresAt,
      );
      return { token, member: active(existing), kind: inviteKind(existing) };
    },
    async inviteFor(token, now) {
      const { invite, member } = await find(token);
      if (!invite || inviteProblem(invite, member, now)) return undefined;
      return {
        email: invite.email,
        admin: readRoles(invite.roles).includes('admin'),
        roles: readRoles(invite.roles),
        kind: inviteKind(member),
        member: active(member),
      };
    },
    async inviteRefusal(token, now) {
      const { invite, member } = await find(token);
      return inviteProblem(invite, member, now);
    },
    async invites(now) {
      const pending: PendingInvite[] = [];
      for (const invite of await db.openInvites(now)) {
        const member = await db.memberByEmail(invite.email);
        if (inviteProblem(invite, member, now)) continue;
        pending.push({
          email: invite.email,
          admin: readRoles(invite.roles).includes('admin'),
          roles: readRoles(invite.roles),
          kind: inviteKind(member),
          createdAt: invite.created_at,
          expiresAt: inviteExpiry(invite, member),
        });
      }
      return pending.sort((a, b) => a.createdAt - b.createdAt || a.email.localeCompare(b.email));
    },
  };
}

export const toSessionInfo = (row: SessionRow): StaffSessionInfo => ({
  id: row.id_hash,
  createdAt: row.created_at,
  lastSeenAt: row.last_seen_at,
  verifiedAt: row.verified_at,
  device: row.device,
});

/** StaffStore.sign for a lead database whose sealed values `leadKey` opens (every store's). */
export function cookieSigner(leadKey: Buffer): StaffStore['sign'] {
  const cookieKey = Buffer.from(hkdfSync('sha256', leadKey, Buffer.alloc(0), 'staff-session-cookie', 32));
  return (value) => createHmac('sha256', cookieKey).update(value).digest('base64url');
}
