// Encryption at rest of every value of a lead: AES-256-GCM, one random IV per value, and the lead id and field name as
// additional data, so a sealed value copied into another row or field no longer opens. Each value names the key it was
// sealed with (v2), so several keys can be in use while one replaces another; v1 values, written before key ids, open
// with the database's first key.
import { createCipheriv, createDecipheriv, createHmac, randomBytes } from 'node:crypto';

export const KEY_BYTES = 32;
const IV_BYTES = 12;
const TAG_BYTES = 16;
// The first part of every sealed value; a new algorithm or layout gets a new prefix, and old values still open.
const VERSION = 'v2';
const LEGACY = 'v1';

export class CipherError extends Error {}

const context = (leadId: string, field: string): Buffer => Buffer.from(`${leadId}\u0000${field}`, 'utf8');

// IVs are cut from a block of random bytes fetched a few hundred at a time: one call into the CSPRNG per value cost
// more than the encryption itself. Each block is new (never refilled in place), so an IV handed out stays as it was.
const IV_BLOCK = IV_BYTES * 256;
let ivBlock = randomBytes(IV_BLOCK);
let ivOffset = 0;
function nextIv(): Buffer {
  if (ivOffset === IV_BLOCK) {
    ivBlock = randomBytes(IV_BLOCK);
    ivOffset = 0;
  }
  ivOffset += IV_BYTES;
  return ivBlock.subarray(ivOffset - IV_BYTES, ivOffset);
}

/**
 * `v2.<key id>.<iv>.<ciphertext>.<tag>`, the last three base64url: plain ASCII that sits in a JSON string untouched.
 * `id` is keyId(key), passed in because computing it costs a hash per value.
 */
export function sealValue(key: Buffer, id: string, plaintext: string, leadId: string, field: string): string {
  const iv = nextIv();
  const cipher = createCipheriv('aes-256-gcm', key, iv).setAAD(context(leadId, field));
  const ciphertext = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
  return [VERSION, id, iv, ciphertext, cipher.getAuthTag()]
    .map((part) => (typeof part === 'string' ? part : part.toString('base64url')))
    .join('.');
}

/** The id of the key `sealed` names (v2), null for a v1 value (the database's first key), undefined for no value. */
export function sealedKeyId(sealed: string): string | null | undefined {
  const parts = sealed.split('.');
  if (parts[0] === LEGACY && parts.length === 4) return null;
  if (parts[0] === VERSION && parts.length === 5) return parts[1];
  return undefined;
}

/** The plaintext of a sealed value; CipherError when it was sealed with another key, or altered, or moved. */
export function openValue(key: Buffer, sealed: string, leadId: string, field: string): string {
  const parts = sealed.split('.');
  const keyed = sealedKeyId(sealed);
  if (keyed === undefined)
    throw new CipherError(`field ${field} of lead ${leadId} is not a sealed value this version knows`);
  const [iv, ciphertext, tag] = parts.slice(keyed === null ? 1 : 2) as [string, string, string];
  const ivBytes = Buffer.from(iv, 'base64url');
  const tagBytes = Buffer.from(tag, 'base64url');
  if (ivBytes.length !== IV_BYTES || tagBytes.length !== TAG_BYTES)
    throw new CipherError(`field ${field} of lead ${leadId} is damaged`);
  try {
    const decipher = createDecipheriv('aes-256-gcm', key, ivBytes, { authTagLength: TAG_BYTES })
      .setAAD(context(leadId, field))
      .setAuthTag(tagBytes);
    return Buffer.concat([decipher.update(Buffer.from(ciphertext, 'base64url')), decipher.final()]).toString(
      'utf8',
    );
  } catch {
    throw new CipherError(
      `field ${field} of lead ${leadId} does not open with this key (wrong key, or the value was altered)`,
    );
  }
}

/**
 * A keyed hash (HMAC-SHA-256) of `text`, such as a submission's fields: equal texts give equal fingerprints, and
 * without the key nobody can test a guess (a date of birth has few values) against one found in the database.
 */
export const fingerprintOf = (key: Buffer, text: string): string =>
  createHmac('sha256', key).update('leads-submission-fingerprint\u0000').update(text).digest('base64url');

/**
 * A short name for a key that reveals nothing about it: kept in the database so that a start with the wrong key fails
 * at once with a clear message, instead of later on the first lead someone tries to read.
 */
export const keyId = (key: Buffer): string =>
  createHmac('sha256', key).update('leads-encryption-key-id').digest('hex').slice(0, 16);
