// Where the lead encryption key comes from: LEADS_ENCRYPTION_KEY, or a key file: LEADS_KEY_FILE, else one beside the
// database. The key file beside it keeps `npm start` working with no configuration; a real deployment supplies the key
// from its secret store, or names a key file kept apart from the database and its backups (server/config.ts).
import { closeSync, mkdirSync, openSync, readFileSync, statSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import { KEY_BYTES } from './lead-cipher.ts';

export class KeyError extends Error {}

export type KeySource =
  | { kind: 'environment' }
  | { kind: 'file'; file: string; /** Readable by others than its owner. */ loose: boolean }
  | { kind: 'created'; file: string }
  /** A ':memory:' database: its key lives and dies with it. */
  | { kind: 'memory' };

const HEX_KEY = new RegExp(`^[0-9a-fA-F]{${KEY_BYTES * 2}}$`);
export const KEY_HINT = 'create one with `openssl rand -hex 32`';

/** 64 hex characters to the 32-byte key; KeyError naming `origin` (the variable or file) otherwise. */
export function parseKeyHex(text: string, origin: string): Buffer {
  const trimmed = text.trim();
  if (!HEX_KEY.test(trimmed))
    throw new KeyError(
      `${origin} must be ${KEY_BYTES * 2} hexadecimal characters (a ${KEY_BYTES}-byte key); ${KEY_HINT}`,
    );
  return Buffer.from(trimmed, 'hex');
}

export const keyFileOf = (dbPath: string): string => `${dbPath}.key`;

function readKeyFile(file: string): { key: Buffer; source: KeySource } {
  const key = parseKeyHex(readFileSync(file, 'utf8'), `The key file ${file}`);
  const loose = (statSync(file).mode & 0o077) !== 0;
  return { key, source: { kind: 'file', file, loose } };
}

/** Writes a new random key, readable only by its owner; 'wx' fails rather than replace a key another process wrote. */
function createKeyFile(file: string): { key: Buffer; source: KeySource } {
  const key = randomBytes(KEY_BYTES);
  // A key file named apart from the database (LEADS_KEY_FILE) may be the first thing in its folder.
  mkdirSync(dirname(file), { recursive: true, mode: 0o700 });
  let fd: number;
  try {
    fd = openSync(file, 'wx', 0o600);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'EEXIST') return readKeyFile(file);
    throw error;
  }
  try {
    writeSync(fd, `${key.toString('hex')}\n`);
  } finally {
    closeSync(fd);
  }
  return { key, source: { kind: 'created', file } };
}

export interface KeyRequest {
  dbPath: string;
  /** LEADS_ENCRYPTION_KEY, already parsed. */
  configured: Buffer | undefined;
  /** LEADS_KEY_FILE; undefined for the file beside the database. */
  keyFile?: string | undefined;
  /** Make a key file when there is none: only for a database that holds no sealed value yet. */
  mayCreate: boolean;
}

/** The key for the database at `dbPath`, and where it came from. */
export function resolveLeadKey({ dbPath, configured, keyFile, mayCreate }: KeyRequest): {
  key: Buffer;
  source: KeySource;
} {
  if (configured) return { key: configured, source: { kind: 'environment' } };
  if (dbPath === ':memory:') return { key: randomBytes(KEY_BYTES), source: { kind: 'memory' } };
  const file = keyFile ?? keyFileOf(dbPath);
  try {
    return readKeyFile(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  if (mayCreate) return createKeyFile(file);
  throw new KeyError(
    `No encryption key for ${dbPath}: set LEADS_ENCRYPTION_KEY, or put the key file at ${file} ` +
      `(LEADS_KEY_FILE names another). ` +
      'Without the key the health details and messages of its leads cannot be read.',
  );
}
