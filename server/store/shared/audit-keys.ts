// The key the audit chain is signed with (HMAC-SHA-256), held apart from the database: AUDIT_KEY when it is set, else
// derived from the lead key that seals now (HKDF, its own label, so it is never the key that seals a value). Each
// signed row names its key's id, so rows signed before a rotation are told from those after
// (docs/decisions/2026-11-27-audit-evidence.md).
import { createHmac, hkdfSync, timingSafeEqual } from 'node:crypto';
import type { Keyring } from './keyring.ts';
import { keyId } from './cipher.ts';

const LABEL = 'lead-audit-chain-v2';

export interface AuditKey {
  /** `audit-<id>` for AUDIT_KEY, `lead-<id>` for a key derived from the lead key of that id. */
  id: string;
  key: Buffer;
}

export interface AuditSigner {
  /** The key new rows and checkpoints are signed with. */
  current(): AuditKey;
  /** The key of this id, if this process holds it. */
  find(id: string): AuditKey | undefined;
}

const derive = (key: Buffer): Buffer => Buffer.from(hkdfSync('sha256', key, Buffer.alloc(0), LABEL, 32));

/** AUDIT_KEY's keys (the first signs, every one verifies) when given, else keys derived from the lead key ring. */
export function auditSigner(keyring: Keyring, auditKeys?: readonly Buffer[]): AuditSigner {
  const cache = new Map<string, AuditKey>();
  const of = (id: string, key: Buffer): AuditKey => {
    const known = cache.get(id);
    if (known) return known;
    const made = { id: `lead-${id}`, key: derive(key) };
    cache.set(id, made);
    return made;
  };
  const fromRing = (id: string) => {
    const ring = id.startsWith('lead-') ? keyring.find(id.slice('lead-'.length)) : undefined;
    return ring && of(ring.id, ring.key);
  };
  const given = (auditKeys ?? []).map((key) => ({ id: `audit-${keyId(key)}`, key: derive(key) }));
  const byId = new Map(given.map((key) => [key.id, key]));
  const [signing] = given;
  return {
    current: () => signing ?? of(keyring.current().id, keyring.current().key),
    // Rows signed with a lead key before AUDIT_KEY was set still verify while that key is in the ring.
    find: (id) => byId.get(id) ?? fromRing(id),
  };
}

export const mac = (key: AuditKey, text: string): string =>
  createHmac('sha256', key.key).update(text).digest('hex');

export const sameMac = (a: string, b: string): boolean =>
  a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));
