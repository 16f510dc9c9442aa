// The publish lock of a SQLite file (ReleaseStore.withPublishLock): one row naming its holder (process id, host name
// and a token of its own, since one process may ask twice), taken and given back in short transactions. SQLite has no
// lock that dies with its holder, so a row whose process is gone from this machine (kill -9 never runs a `finally`) is
// taken over by the next caller; a holder on another host (a file shared over a network) is waited for.
import { randomUUID } from 'node:crypto';
import { hostname } from 'node:os';
import { setTimeout as sleep } from 'node:timers/promises';
import type Database from 'better-sqlite3';

/** How often a waiting publisher looks at the lock again: publishes take seconds, so a fifth of one is no delay. */
export const LOCK_POLL_MS = 200;

interface LockRow {
  pid: number;
  host: string;
  token: string;
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

export function sqlitePublishLock(db: Database.Database) {
  const host = hostname();
  const select = db.prepare<[], LockRow>('SELECT pid, host, token FROM publish_lock WHERE id = 1');
  const take = db.prepare<[number, string, string, string]>(
    `INSERT INTO publish_lock (id, pid, host, token, at) VALUES (1, ?, ?, ?, ?)
     ON CONFLICT (id) DO UPDATE SET pid = excluded.pid, host = excluded.host, token = excluded.token, at = excluded.at`,
  );
  const release = db.prepare<[string]>('DELETE FROM publish_lock WHERE id = 1 AND token = ?');

  /** Takes the lock if it is free or its holder died; true when taken. One IMMEDIATE transaction: look, then take. */
  const takeIfFree = db.transaction((token: string): boolean => {
    const holder = select.get();
    if (holder && !(holder.host === host && !processAlive(holder.pid))) return false;
    take.run(process.pid, host, token, new Date().toISOString());
    return true;
  });
  const tryTake = (token: string) => takeIfFree.immediate(token);

  return async function withPublishLock<T>(work: () => Promise<T>, onWait?: () => void): Promise<T> {
    const token = randomUUID();
    let told = false;
    while (!tryTake(token)) {
      if (!told) onWait?.();
      told = true;
      await sleep(LOCK_POLL_MS);
    }
    try {
      return await work();
    } finally {
      // Only our own row: one taken over from us (we were thought dead) is its new holder's.
      release.run(token);
    }
  };
}
