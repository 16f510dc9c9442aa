// Where the lead encryption keys come from: LEADS_ENCRYPTION_KEY, or a key file: LEADS_KEY_FILE, else one beside the
// database. Either holds a key ring: one key, or several (comma-separated in the variable, one a line in the file);
// the first seals, every one opens, so `npm run leads -- rotate-key` can replace a key while the server runs. The key file beside it keeps `npm start` working with no configuration; a real deployment supplies the key
// from its secret store, or names a key file kept apart from the database and its backups (server/config.ts).
import {
  closeSync,
  fsyncSync,
  mkdirSync,
  openSync,
  readFileSync,
  renameSync,
  rmSync,
  statSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { randomBytes } from 'node:crypto';
import type { KeySource } from '../contract/keys.ts';
import { KEY_BYTES } from './cipher.ts';

export class KeyError extends Error {}

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

/** One key or several, separated by commas or line breaks, the current one first; KeyError naming `origin`. */
export function parseKeyring(text: string, origin: string): Buffer[] {
  const entries = text
    .split(/[,\n]/)
    .map((entry) => entry.trim())
    .filter(Boolean);
  if (entries.length === 0) return [parseKeyHex('', origin)];
  return entries.map((entry, n) =>
    parseKeyHex(entry, entries.length > 1 ? `${origin} (key ${n + 1})` : origin),
  );
}

export const keyFileOf = (dbPath: string): string => `${dbPath}.key`;

export function readKeyFile(file: string): { keys: Buffer[]; source: KeySource } {
  const keys = parseKeyring(readFileSync(file, 'utf8'), `The key file ${file}`);
  const loose = (statSync(file).mode & 0o077) !== 0;
  return { keys, source: { kind: 'file', file, loose } };
}

/** Replaces the key file whole (written beside it, synced, renamed over it), readable only by its owner. */
export function writeKeyFile(file: string, keys: readonly Buffer[]): void {
  const partial = `${file}.partial`;
  rmSync(partial, { force: true });
  const fd = openSync(partial, 'wx', 0o600);
  try {
    writeSync(fd, keys.map((key) => `${key.toString('hex')}\n`).join(''));
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
  renameSync(partial, file);
}

/** Writes a new random key, readable only by its owner; 'wx' fails rather than replace a key another process wrote. */
function createKeyFile(file: string): { keys: Buffer[]; source: KeySource } {
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
  return { keys: [key], source: { kind: 'created', file } };
}

export interface KeyRequest {
  dbPath: string;
  /** LEADS_ENCRYPTION_KEY, already parsed: one key, or a ring of them. */
  configured: Buffer | readonly Buffer[] | undefined;
  /** LEADS_KEY_FILE; undefined for the file beside the database. */
  keyFile?: string | undefined;
  /** Make a key file when there is none: only for a database that holds no sealed value yet. */
  mayCreate: boolean;
}

/** The keys for the database at `dbPath` (the current one first), and where they came from. */
export function resolveLeadKey({ dbPath, configured, keyFile, mayCreate }: KeyRequest): {
  keys: Buffer[];
  source: KeySource;
} {
  if (configured) return { keys: [configured].flat(), source: { kind: 'environment' } };
  if (dbPath === ':memory:') return { keys: [randomBytes(KEY_BYTES)], source: { kind: 'memory' } };
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
