// The publish lock of a SQLite file (ReleaseStore.withPublishLock): one row naming its holder (process id, host name
// and a token of its own, since one process may ask twice), taken and given back in short transactions. SQLite has no
// lock that dies with its holder, and kill -9 never runs a `finally`, so the next caller takes over a row whose holder
// is gone:
// - its process no longer runs on this machine (process.kill(pid, 0) fails with ESRCH);
// - it names this very process under a token this process does not hold (its pid was reused, as in a container,
//   where a killed publisher's pid is soon another's: waiting for ourselves would be for ever);
// - its holder stopped renewing it (every LOCK_RENEW_MS) for LOCK_STALE_MS: a process elsewhere (another container
//   with the file mounted) or a pid reused by an unrelated process.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';

/** How often a waiting publisher looks at the lock again: publishes take seconds, so a fifth of one is no delay. */
export const LOCK_POLL_MS = 200;
/** How often a holder renews its row: a publish never holds the event loop this long. */
export const LOCK_RENEW_MS = 5000;
/** A row not renewed for this long is its dead holder's: six renewals missed. */
export const LOCK_STALE_MS = 30_000;

interface LockRow {
  pid: number;
  host: string;
  token: string;
  at: string;
}

/** Whether process `pid` of this machine runs: signal 0 checks without sending anything; EPERM is someone else's. */
export function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** The tokens this process holds the lock under (any database): a row of our pid with another token is stale. */
const held = new Set<string>();

export function sqlitePublishLock(db: Database.Database) {
  const host = hostname();
  const select = db.prepare<[], LockRow>('SELECT pid, host, token, at FROM publish_lock WHERE id = 1');
  const take = db.prepare<[number, string, string, string]>(
    `INSERT INTO publish_lock (id, pid, host, token, at) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, token = excluded.token, at = excluded.at`,
  );
  const renew = db.prepare<[string, string]>('UPDATE publish_lock SET at = ? WHERE id = 1 AND token = ?');
  const release = db.prepare<[string]>('DELETE FROM publish_lock WHERE id = 1 AND token = ?');

  const gone = (holder: LockRow) =>
    (holder.host === host &&
      (holder.pid === process.pid ? !held.has(holder.token) : !processAlive(holder.pid))) ||
    !(Date.now() - Date.parse(holder.at) < LOCK_STALE_MS);

  /** Takes the lock if it is free or its holder is gone; true when taken. One IMMEDIATE transaction: look, then take. */
  const takeIfFree = db.transaction((token: string): boolean => {
    const holder = select.get();
    if (holder && !gone(holder)) return false;
    take.run(process.pid, host, token, new Date().toISOString());
    return true;
  });

  return async function withPublishLock<T>(work: () => Promise<T>, onWait?: () => void): Promise<T> {
    const token = randomUUID();
    let told = false;
    while (!takeIfFree.immediate(token)) {
      if (!told) onWait?.();
      told = true;
      await sleep(LOCK_POLL_MS);
    }
    held.add(token);
    const renewal = setInterval(() => {
      try {
        renew.run(new Date().toISOString(), token);
      } catch {
        // Busy past busy_timeout: the next renewal, well before the row is thought stale.
      }
    }, LOCK_RENEW_MS);
    renewal.unref();
    try {
      return await work();
    } finally {
      clearInterval(renewal);
      held.delete(token);
      // Only our own row: one taken over from us (we were thought dead) is its new holder's.
      release.run(token);
    }
  };
}
