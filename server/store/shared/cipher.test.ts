import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { CipherError, KEY_BYTES, keyId, openValue, sealedKeyId, sealValue as sealWith } from './cipher.ts';

const key = randomBytes(KEY_BYTES);
const lead = '0190f0c2-0000-7000-8000-000000000001';
const sealValue = (with_: Buffer, text: string, leadId: string, field: string) =>
  sealWith(with_, keyId(with_), text, leadId, field);

describe('lead cipher', () => {
  it('seals a value as v2.<key id>.<iv>.<ciphertext>.<tag> with a fresh 12-byte IV, and opens it again', () => {
    const sealed = sealValue(key, '1987-03-14', lead, 'dateOfBirth');
    const [version, id, iv, ciphertext, tag] = sealed.split('.');
    expect(version).toBe('v2');
    expect(id).toBe(keyId(key));
    expect(sealedKeyId(sealed)).toBe(keyId(key));
    expect(Buffer.from(iv ?? '', 'base64url')).toHaveLength(12);
    expect(Buffer.from(tag ?? '', 'base64url')).toHaveLength(16);
    expect(Buffer.from(ciphertext ?? '', 'base64url').toString('utf8')).not.toContain('1987');
    expect(sealed).toMatch(/^[\w.-]+$/);
    expect(openValue(key, sealed, lead, 'dateOfBirth')).toBe('1987-03-14');
    expect(sealValue(key, '1987-03-14', lead, 'dateOfBirth')).not.toBe(sealed);
  });

  it('never repeats an IV, across several blocks of pre-fetched random bytes', () => {
    const ivs = Array.from({ length: 1000 }, () => sealValue(key, 'x', lead, 'f').split('.')[2]);
    expect(new Set(ivs).size).toBe(1000);
  });

  it('keeps any text, including the empty string and characters outside ASCII', () => {
    for (const text of ['', 'Ünïcødé 😀', 'x'.repeat(4000), 'line\nbreak']) {
      expect(openValue(key, sealValue(key, text, lead, 'message'), lead, 'message')).toBe(text);
    }
  });

  it('refuses another key, another lead or field, an altered value and an unknown version', () => {
    const sealed = sealValue(key, 'XZH-99817234', lead, 'memberId');
    expect(() => openValue(randomBytes(KEY_BYTES), sealed, lead, 'memberId')).toThrow(CipherError);
    expect(() => openValue(key, sealed, 'another-lead', 'memberId')).toThrow(/does not open/);
    expect(() => openValue(key, sealed, lead, 'message')).toThrow(CipherError);
    const [version, id, iv, ciphertext, tag] = sealed.split('.');
    const flipped = Buffer.from(ciphertext ?? '', 'base64url');
    flipped[0] = (flipped[0] ?? 0) ^ 1;
    expect(() =>
      openValue(key, [version, id, iv, flipped.toString('base64url'), tag].join('.'), lead, 'memberId'),
    ).toThrow(CipherError);
    expect(() => openValue(key, sealed.replace(/^v2/, 'v9'), lead, 'memberId')).toThrow(/not a sealed value/);
    expect(() => openValue(key, 'plain text', lead, 'memberId')).toThrow(CipherError);
  });

  it('still opens a v1 value, written before values named their key', () => {
    const v2 = sealValue(key, 'XZH-99817234', lead, 'memberId');
    const v1 = ['v1', ...v2.split('.').slice(2)].join('.');
    expect(sealedKeyId(v1)).toBeNull();
    expect(openValue(key, v1, lead, 'memberId')).toBe('XZH-99817234');
  });

  it('names a key by an id that is stable and differs between keys', () => {
    expect(keyId(key)).toMatch(/^[0-9a-f]{16}$/);
    expect(keyId(Buffer.from(key))).toBe(keyId(key));
    expect(keyId(randomBytes(KEY_BYTES))).not.toBe(keyId(key));
  });
});
