// A copy of the lead database taken while the server writes to it, with SQLite's online backup. Every page is copied in
// one step, inside one read transaction (WAL lets the server's writer go on meanwhile), so the copy is the database as
// it was at one moment: every lead committed before the backup began is in it, whole with its alert. Sealed fields
// stay encrypted as stored; the copy is read with the same key.
import { closeSync, existsSync, mkdirSync, openSync, renameSync, rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import Database from 'better-sqlite3';
import { BUSY_TIMEOUT_MS, PRIVATE_FILE, PRIVATE_FOLDER } from './schema.ts';

export class BackupError extends Error {}

// Pages per backup step: all of them at once. In smaller steps, any commit by the server between two steps would
// restart the copy from its first page, and a busy server could keep it from ever finishing.
const ALL_PAGES = 0x7fffffff;

export interface BackupResult {
  leads: number;
  bytes: number;
}

/** Copies the database at `source` to the new file `target` (never over an existing one), checked before it is named. */
export async function backupLeadDatabase(source: string, target: string): Promise<BackupResult> {
  if (!existsSync(source)) throw new BackupError(`No lead database at ${source}.`);
  if (existsSync(target)) throw new BackupError(`${target} exists already: give the backup a new file name.`);
  mkdirSync(dirname(target), { recursive: true, mode: PRIVATE_FOLDER });
  // Written under another name, and renamed once whole and checked: a file at `target` is always a usable backup.
  const partial = `${target}.partial`;
  rmSync(partial, { force: true });
  // Created 0600 before SQLite writes it (its journal takes the file's mode): a backup holds what the database holds.
  closeSync(openSync(partial, 'wx', PRIVATE_FILE));

  const db = new Database(source, { fileMustExist: true });
  try {
    db.pragma(`busy_timeout = ${BUSY_TIMEOUT_MS}`);
    await db.backup(partial, { progress: () => ALL_PAGES });
  } finally {
    db.close();
  }

  const copy = new Database(partial);
  let leads: number;
  try {
    // One self-contained file: a copy in WAL mode would need -wal and -shm files beside it wherever it is opened.
    copy.pragma('journal_mode = DELETE');
    const check = copy.pragma('integrity_check', { simple: true });
    if (check !== 'ok') throw new BackupError(`The copy failed SQLite's integrity check: ${String(check)}`);
    leads = copy.prepare('SELECT COUNT(*) FROM leads').pluck().get() as number;
  } catch (error) {
    copy.close();
    rmSync(partial, { force: true });
    throw error;
  }
  copy.close();
  renameSync(partial, target);
  return { leads, bytes: statSync(target).size };
}
