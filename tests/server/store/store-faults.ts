// What the store-fault tests share: real faults of the disk under the lead database (another process's lock, a full
// file system, a read-only one, a frozen one), submissions timed as a visitor waits for them, and what the database
// holds afterwards; and the set-up of the tests that run the server as its own process on a lead database (this file's,
// the backup's and the graceful stop's): clean-ups after each test and the server with their settings. (Their folder
// is tests/helpers/temp-dir.ts's, asked for before cleanupsAfterEach so that it goes after the servers stop.)
// Mounting needs root; a test that cannot mount says so and is skipped.
import { execFileSync, spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, join } from 'node:path';
import Database from 'better-sqlite3';
import { afterEach, expect, type TestContext } from 'vitest';
import { IDEMPOTENCY_HEADER } from '../../../core/form-rules.ts';
import {
  startServerProcess,
  type ServerEnv,
  type ServerProcess,
} from '../../../scripts/lib/server-process.ts';
import { ANSWER_WITHIN_MS } from '../../../server/forms/form-submission.ts';
import { keyFileOf, parseKeyHex } from '../../../server/store/shared/key-file.ts';
import { createSealer } from '../../../server/store/shared/sealing.ts';
import type { LeadRow } from '../../../server/store/contract/rows.ts';
import {
  postForm,
  postJson,
  site,
  tempDir,
  validLead,
  waitFor,
  writeClientDir,
} from '../../helpers/fixtures.ts';

/** The bound a visitor's wait is checked against: the promise, plus a second for a busy test machine. */
export const ANSWER_BOUND_MS = ANSWER_WITHIN_MS + 1_000;

export type Cleanup = () => Promise<void> | void;
export type Defer = (cleanup: Cleanup) => void;

/**
 * Registers, in the calling test file, the clean-ups run after each test, whether it passed or not (the last registered
 * first: each was set up on what came before it); returns the function a test registers one with. So a failing test
 * leaves no server running, no disk mounted and no folder behind for the next.
 */
export function cleanupsAfterEach(): Defer {
  const cleanups: Cleanup[] = [];
  afterEach(async () => {
    for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
  });
  return (cleanup) => void cleanups.push(cleanup);
}

/** Where a server takes the form the tests submit. */
export const formApi = (serverUrl: string): string => `${serverUrl}/api/forms/insurance-verification`;

/**
 * The settings of a server these tests start: its lead database, the test build written into `dir`, a rate limit no
 * burst from the one test address reaches, and every log line (each is checked for personal values); `more` adds to
 * them (a key, a webhook).
 */
export function faultServerEnv<More extends ServerEnv>(dbFile: string, dir: string, more: More) {
  return {
    LEADS_DB: dbFile,
    CLIENT_DIR: writeClientDir(dir),
    FORM_RATE_LIMIT: '100000',
    LOG_LEVEL: 'trace',
    ...more,
  } satisfies ServerEnv;
}

/** The server as its own process on `env` (from faultServerEnv), killed after the test; with its form API address. */
export async function startFaultServer(
  defer: Defer,
  env: ServerEnv,
): Promise<{ server: ServerProcess; api: string }> {
  const server = await startServerProcess({ env });
  defer(() => server.stop('SIGKILL'));
  return { server, api: formApi(server.url) };
}

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
    { cwd: join(import.meta.dirname, '..', '..', '..'), stdio: ['pipe', 'pipe', 'inherit'] },
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
  // Its own folder, not the test's (tests/helpers/temp-dir.ts): it lives as long as the mount, and goes with it.
  const base = tempDir();
  const dir = join(base, 'mnt');
  const image = join(base, 'disk.img');
  try {
    mkdirSync(dir);
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

/** A fresh file system (see mount) for the lead database, unmounted after the test; the test is skipped without one. */
export function mountForTest(
  context: Pick<TestContext, 'skip'>,
  defer: Defer,
  type: 'tmpfs' | 'ext4',
  sizeMb: number,
): Mounted {
  const disk = mount(type, sizeMb);
  if ('skip' in disk) context.skip(disk.skip);
  defer(disk.unmount);
  return disk;
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

/**
 * Ten visitors of the enhanced form (each with an Idempotency-Key of their own) and one without JavaScript, sending
 * together while the store fails: each is told in time, with the phone number. Resolves with the server's log lines
 * about them once all eleven are there (the log is read as the process writes it: the last line may come a moment
 * after the last answer).
 */
export async function expectElevenCallUs(
  api: string,
  server: ServerProcess,
): Promise<Record<string, unknown>[]> {
  const answers = await Promise.all([
    ...Array.from({ length: 10 }, (_, index) => submit(api, 100 + index, { key: randomUUID() })),
    submit(api, 200, { plain: true }),
  ]);
  answers.slice(0, -1).forEach((answer) => expectCallUs(answer));
  expectCallUs(answers.at(-1) as Answer, true);
  return waitFor(() => {
    const lines = server.logs().filter((line) => line.msg === 'lead could not be stored');
    return lines.length === 11 && lines;
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

/**
 * What the database file holds, read by a connection of its own; `keyHex` is the server's LEADS_ENCRYPTION_KEY, else
 * the key file it created beside the database opens the values.
 */
export function stored(dbFile: string, keyHex?: string): Stored {
  const db = new Database(dbFile, { readonly: true });
  try {
    // Every value is sealed: opened with the server's key.
    const sealer = createSealer(parseKeyHex(keyHex ?? readFileSync(keyFileOf(dbFile), 'utf8'), 'the key'));
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

/** The database holds the leads `Fault Test <n>` for these n and no other, each whole with its alert, and is sound. */
export function expectStoredExactly(dbFile: string, keyHex: string | undefined, ns: readonly number[]): void {
  const after = stored(dbFile, keyHex);
  expect([...after.names].sort()).toEqual(ns.map((n) => `Fault Test ${n}`).sort());
  expect(after).toMatchObject({ leads: ns.length, halves: 0, integrity: 'ok' });
}
