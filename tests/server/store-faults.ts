// What the store-fault tests share: real faults of the disk under the lead database (another process's lock, a full
// file system, a read-only one, a frozen one), submissions timed as a visitor waits for them, and what the database
// holds afterwards. Mounting needs root; a test that cannot mount says so and is skipped.
import { execFileSync, spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { expect } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../core/form-rules.ts';
import { ANSWER_WITHIN_MS } from '../../server/forms/form-submission.ts';
import { keyFileOf, parseKeyHex } from '../../server/leads/lead-key.ts';
import { createSealer } from '../../server/leads/lead-sealing.ts';
import type { LeadRow } from '../../server/leads/lead-writes.ts';
import { postForm, postJson, site, tempDir, validLead } from './fixtures.ts';

/** The bound a visitor's wait is checked against: the promise, plus a second for a busy test machine. */
export const ANSWER_BOUND_MS = ANSWER_WITHIN_MS + 1_000;

/** Runs a command as root; throws with its stderr when it fails. */
export const run = (command: string, ...args: string[]): string =>
  execFileSync(command, args, { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });

/**
 * Another process holding SQLite's write lock on `dbFile` (BEGIN EXCLUSIVE), as a second writer or a stuck tool would;
 * resolves once the lock is held.
 */
export async function holdLock(dbFile: string): Promise<{ release: () => Promise<void> }> {
  const holder = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import Database from 'better-sqlite3';
       const db = new Database(${JSON.stringify(dbFile)});
       db.exec('BEGIN EXCLUSIVE');
       process.stdout.write('locked\\n');
       process.stdin.on('data', () => { db.exec('ROLLBACK'); db.close(); process.exit(0); });`,
    ],
    { cwd: join(import.meta.dirname, '..', '..'), stdio: ['pipe', 'pipe', 'inherit'] },
  );
  await new Promise<void>((resolve, reject) => {
    holder.stdout.once('data', () => resolve());
    holder.once('exit', (code) => reject(new Error(`the lock holder exited (code ${code})`)));
  });
  const exited = new Promise((resolve) => holder.once('exit', resolve));
  return {
    release: async () => {
      if (holder.exitCode === null) holder.stdin.write('release\n');
      await exited;
    },
  };
}

export interface Mounted {
  dir: string;
  /** ext4: unmounts, checks (e2fsck) and mounts it again, as an operator mends a disk the kernel made read-only. */
  mend: () => void;
  /** Unmounts (lazily, so a process still holding a file cannot keep it) and removes the mount point. */
  unmount: () => void;
}

/** A fresh file system mounted on a new folder, or the reason it could not be (not root, no loop devices...). */
export function mount(type: 'tmpfs' | 'ext4', sizeMb: number): Mounted | { skip: string } {
  const base = tempDir();
  const dir = join(base, 'mnt');
  mkdirSync(dir);
  const image = join(base, 'disk.img');
  try {
    if (type === 'tmpfs') run('mount', '-t', 'tmpfs', '-o', `size=${sizeMb}m,mode=0700`, 'tmpfs', dir);
    else {
      writeFileSync(image, '');
      run('truncate', '-s', `${sizeMb}M`, image);
      run('mkfs.ext4', '-q', image);
      // errors=remount-ro: what a production ext4 does when its disk fails, and what trigger_fs_error sets off.
      run('mount', '-o', 'loop,errors=remount-ro', image, dir);
    }
  } catch (error) {
    rmSync(base, { recursive: true, force: true });
    return {
      skip: `cannot mount ${type} (${(error as Error).message.split('\n')[0]}): root and mount(8) needed`,
    };
  }
  return {
    dir,
    mend: () => {
      run('umount', dir);
      try {
        run('e2fsck', '-fy', image);
      } catch (error) {
        // Exit code 1: errors were found and corrected, as after the simulated disk error.
        if ((error as { status?: number }).status !== 1) throw error;
      }
      run('mount', '-o', 'loop,errors=remount-ro', image, dir);
    },
    unmount: () => {
      try {
        run('umount', '-l', dir);
      } finally {
        rmSync(base, { recursive: true, force: true });
      }
    },
  };
}

/** Turns the ext4 file system on `dir` read-only as the kernel does after a disk error (it stays so until unmounted). */
export function makeReadOnly(dir: string): void {
  const device = basename(run('findmnt', '-no', 'SOURCE', dir).trim());
  writeFileSync(`/sys/fs/ext4/${device}/trigger_fs_error`, '1');
  expect(run('findmnt', '-no', 'OPTIONS', dir)).toMatch(/^ro,|emergency_ro/);
}

export interface Answer {
  status: number;
  ms: number;
  type: string;
  text: string;
}

/** Every personal value `submit` sends (for any n under 1,000): none may reach the server's log. */
export const FAULT_LEAD_VALUES: readonly string[] = [
  ...Object.values(validLead),
  ...Array.from({ length: 1_000 }, (_, n) => [`Fault Test ${n}`, `FAULT-${n}`]).flat(),
];

/** One submission, as JSON (the enhanced form, with an Idempotency-Key) or a plain form post; timed from sending. */
export async function submit(
  api: string,
  n: number,
  { plain = false, key }: { plain?: boolean; key?: string } = {},
): Promise<Answer> {
  const body = { ...validLead, fullName: `Fault Test ${n}`, memberId: `FAULT-${n}` };
  const started = performance.now();
  const response = plain
    ? await postForm(api, body)
    : await postJson(api, body, key ? { [IDEMPOTENCY_HEADER]: key } : {});
  const text = await response.text();
  return {
    status: response.status,
    ms: performance.now() - started,
    type: response.headers.get('content-type') ?? '',
    text,
  };
}

/** A 503 as the visitor sees it: in time, and with the admissions phone number to call instead. */
export function expectCallUs(answer: Answer, plain = false): void {
  expect(answer.status, answer.text).toBe(503);
  expect(answer.ms).toBeLessThan(ANSWER_BOUND_MS);
  if (plain) {
    expect(answer.type).toMatch(/^text\/html/);
    expect(answer.text).toContain(`href="tel:${site.phones.primary.tel}"`);
    expect(answer.text).toContain('could not be saved');
  } else
    expect(JSON.parse(answer.text)).toEqual({
      error: expect.stringMatching(/could not be saved.*call us/),
      phone: site.phones.primary.display,
    });
}

export interface Stored {
  /** The names of the leads stored (each submission is `Fault Test <n>`). */
  names: Set<string>;
  leads: number;
  /** Leads without their alert, and alerts without their lead: half-written submissions. */
  halves: number;
  integrity: string;
}

/** What the database file holds, read by a connection of its own. */
export function stored(dbFile: string): Stored {
  const db = new Database(dbFile, { readonly: true });
  try {
    // Every value is sealed: opened with the key file the server created beside the database.
    const sealer = createSealer(parseKeyHex(readFileSync(keyFileOf(dbFile), 'utf8'), 'the key file'));
    const names = new Set(
      (db.prepare('SELECT id, data, sealed FROM leads').all() as LeadRow[]).map(
        (row) => sealer.openAll(row).fullName ?? '',
      ),
    );
    const halves = db
      .prepare(
        `SELECT (SELECT COUNT(*) FROM leads WHERE id NOT IN (SELECT lead_id FROM alerts))
              + (SELECT COUNT(*) FROM alerts WHERE lead_id NOT IN (SELECT id FROM leads))`,
      )
      .pluck()
      .get() as number;
    return {
      names,
      leads: db.prepare('SELECT COUNT(*) FROM leads').pluck().get() as number,
      halves,
      integrity: db.pragma('integrity_check', { simple: true }) as string,
    };
  } finally {
    db.close();
  }
}
