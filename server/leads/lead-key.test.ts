import { mkdtempSync, readFileSync, rmSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { KeyError, keyFileOf, parseKeyHex, resolveLeadKey } from './lead-key.ts';

const dirs: string[] = [];
afterEach(() => dirs.splice(0).forEach((dir) => rmSync(dir, { recursive: true, force: true })));
const dbPath = () => {
  const dir = mkdtempSync(join(tmpdir(), 'lead-key-'));
  dirs.push(dir);
  return join(dir, 'leads.db');
};
const HEX = 'a1'.repeat(32);

describe('lead encryption key', () => {
  it('reads 64 hex characters as 32 bytes, and names the origin of anything else', () => {
    expect(parseKeyHex(` ${HEX.toUpperCase()}\n`, 'X')).toEqual(Buffer.alloc(32, 0xa1));
    for (const bad of ['', 'a1'.repeat(31), 'a1'.repeat(33), 'zz'.repeat(32), HEX.replace(/^a/, ' ')])
      expect(() => parseKeyHex(bad, 'LEADS_ENCRYPTION_KEY'), bad).toThrow(
        /LEADS_ENCRYPTION_KEY must be 64 hexadecimal characters.*openssl rand -hex 32/,
      );
  });

  it('prefers the configured key and never writes a file then', () => {
    const path = dbPath();
    const configured = Buffer.alloc(32, 7);
    expect(resolveLeadKey({ dbPath: path, configured, mayCreate: true })).toEqual({
      key: configured,
      source: { kind: 'environment' },
    });
    expect(() => readFileSync(keyFileOf(path))).toThrow();
  });

  it('creates a key file readable only by its owner, then reuses it', () => {
    const path = dbPath();
    const created = resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: true });
    expect(created.source).toEqual({ kind: 'created', file: `${path}.key` });
    expect(statSync(`${path}.key`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${path}.key`, 'utf8')).toBe(`${created.key.toString('hex')}\n`);
    const again = resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: true });
    expect(again.key).toEqual(created.key);
    expect(again.source).toEqual({ kind: 'file', file: `${path}.key`, loose: false });
  });

  it('says when the key file is readable by others, and refuses a damaged one', () => {
    const path = dbPath();
    writeFileSync(keyFileOf(path), HEX);
    chmodSync(keyFileOf(path), 0o644);
    expect(resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: false }).source).toMatchObject({
      loose: true,
    });
    writeFileSync(keyFileOf(path), 'not a key');
    expect(() => resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: true })).toThrow(
      new RegExp(`The key file ${keyFileOf(path)} must be 64 hexadecimal`),
    );
  });

  it('makes no key when told not to, and says where one is expected', () => {
    const path = dbPath();
    expect(() => resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: false })).toThrow(KeyError);
    expect(() => resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: false })).toThrow(
      /set LEADS_ENCRYPTION_KEY, or put the key file at .*leads\.db\.key/,
    );
  });

  it('gives a throwaway database a throwaway key', () => {
    const { key, source } = resolveLeadKey({ dbPath: ':memory:', configured: undefined, mayCreate: false });
    expect(key).toHaveLength(32);
    expect(source).toEqual({ kind: 'memory' });
  });
});
