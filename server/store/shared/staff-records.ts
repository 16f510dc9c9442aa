// Staff as both stores keep them: the e-mail as stored, rows to members and passkeys and back, the hashes and
// signatures of secrets, and the invitation path over each store's own statements.
import { createHash, createHmac, hkdfSync, randomBytes } from 'node:crypto';
import type { MemberRow, PasskeyRow } from '../contract/rows.ts';
import type { NewPasskey, StaffMember, StaffStore, StoredPasskey } from '../contract/staff-store.ts';

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

/** The e-mail as stored (trimmed, lower-cased); undefined when it does not look like an address. */
export function normaliseEmail(text: string): string | undefined {
  const email = text.trim().toLowerCase();
  return EMAIL.test(email) ? email : undefined;
}

export const sha256 = (text: string): string => createHash('sha256').update(text).digest('hex');
export const secret = (): string => randomBytes(32).toString('base64url');

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
