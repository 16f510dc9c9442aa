import { readFileSync, statSync, chmodSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { useTempDir } from '../../../tests/helpers/temp-dir.ts';
import { KeyError, keyFileOf, parseKeyHex, parseKeyring, resolveLeadKey, writeKeyFile } from './key-file.ts';

const tempDir = useTempDir('lead-key-');
const dbPath = () => join(tempDir(), 'leads.db');
const HEX = 'a1'.repeat(32);

describe('lead encryption key', () => {
  it('reads 64 hex characters as 32 bytes, and names the origin of anything else', () => {
    expect(parseKeyHex(` ${HEX.toUpperCase()}\n`, 'X')).toEqual(Buffer.alloc(32, 0xa1));
    for (const bad of ['', 'a1'.repeat(31), 'a1'.repeat(33), 'zz'.repeat(32), HEX.replace(/^a/, ' ')])
      expect(() => parseKeyHex(bad, 'LEADS_ENCRYPTION_KEY'), bad).toThrow(
        /LEADS_ENCRYPTION_KEY must be 64 hexadecimal characters.*openssl rand -hex 32/,
      );
  });

  it('reads a key ring: comma-separated in the variable, one a line in the file, the current key first', () => {
    const [a, b] = [Buffer.alloc(32, 1), Buffer.alloc(32, 2)];
    expect(parseKeyring(` ${a.toString('hex')}, ${b.toString('hex')} `, 'LEADS_ENCRYPTION_KEY')).toEqual([
      a,
      b,
    ]);
    expect(parseKeyring(`${a.toString('hex')}\n${b.toString('hex')}\n\n`, 'The key file')).toEqual([a, b]);
    expect(() => parseKeyring(`${a.toString('hex')},nonsense`, 'LEADS_ENCRYPTION_KEY')).toThrow(
      /LEADS_ENCRYPTION_KEY \(key 2\) must be 64 hexadecimal/,
    );
    expect(() => parseKeyring(' ', 'LEADS_ENCRYPTION_KEY')).toThrow(KeyError);
    const path = dbPath();
    writeKeyFile(keyFileOf(path), [b, a]);
    expect(statSync(keyFileOf(path)).mode & 0o777).toBe(0o600);
    expect(resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: false }).keys).toEqual([b, a]);
  });

  it('prefers the configured key and never writes a file then', () => {
    const path = dbPath();
    const configured = Buffer.alloc(32, 7);
    expect(resolveLeadKey({ dbPath: path, configured, mayCreate: true })).toEqual({
      keys: [configured],
      source: { kind: 'environment' },
    });
    expect(() => readFileSync(keyFileOf(path))).toThrow();
  });

  it('creates a key file readable only by its owner, then reuses it', () => {
    const path = dbPath();
    const created = resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: true });
    expect(created.source).toEqual({ kind: 'created', file: `${path}.key` });
    expect(statSync(`${path}.key`).mode & 0o777).toBe(0o600);
    expect(readFileSync(`${path}.key`, 'utf8')).toBe(`${created.keys[0]!.toString('hex')}\n`);
    const again = resolveLeadKey({ dbPath: path, configured: undefined, mayCreate: true });
    expect(again.keys).toEqual(created.keys);
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
    const { keys, source } = resolveLeadKey({ dbPath: ':memory:', configured: undefined, mayCreate: false });
    expect(keys).toHaveLength(1);
    expect(keys[0]).toHaveLength(32);
    expect(source).toEqual({ kind: 'memory' });
  });
});
